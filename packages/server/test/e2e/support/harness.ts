import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Gateway } from '@switchboard/core'
import { createTestClock, T0, type TestClock } from '@switchboard/core/testing'
import type { ServerConfig } from '../../../src/config.js'
import { startServer, type RunningServer } from '../../../src/start-server.js'
import { testConfig } from '../../helpers/server-config.js'
import { Api } from './api.js'

/** The master admin key of every server under test (a server without one generates its own). */
export const ADMIN_KEY = `wamk_${'e2eMasterKey0123456789'.repeat(2)}`

/**
 * Mocha timeout of the e2e tests: a test takes well under a second, but the first start in a
 * process loads every package through tsx, which a loaded CI machine can stretch past mocha's 5 s.
 */
export const E2E_TIMEOUT_MS = 20_000

/** Sandbox timings on the test clock (the defaults of the settings; nothing sleeps them, they are ticked). */
export const QR_DELAY_MS = 1000
export const CONNECT_DELAY_MS = 200

export interface E2eOptions {
  /** Settings over the e2e defaults (memory store, small webhook retries, a high general limit, the admin key above). */
  env?: Record<string, string>
  /** `sqlite` (in the data dir) for tests that restart over the same data. @default 'memory' */
  store?: 'memory' | 'sqlite'
  /** Reuse a data dir (restart); a fresh temp dir otherwise. */
  dataDir?: string
  /** Reuse a clock (restart); a fresh test clock at T0 otherwise. */
  clock?: TestClock
}

/** A real server on the sandbox network, on a test clock, with a client holding the admin key. */
export interface E2e {
  server: RunningServer<Gateway>
  config: ServerConfig
  clock: TestClock
  dataDir: string
  url: string
  /** Client with the master admin key. */
  admin: Api
  /** Client with another key (or none). */
  as(key: string | undefined): Api
  close(): Promise<void>
  /** Closes this server and starts a new one over the same data dir and clock. */
  restart(): Promise<E2e>
}

/** Starts the real server (startServer) with the sandbox network, a temp data dir and a test clock. */
export async function startE2e(options: E2eOptions = {}): Promise<E2e> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-e2e-'))
  const clock = options.clock ?? createTestClock(T0)
  const config = testConfig({
    SWITCHBOARD_DATA_DIR: dataDir,
    // Empty means unset: the default sqlite store in the data dir.
    SWITCHBOARD_STORE: options.store === 'sqlite' ? '' : 'memory',
    SWITCHBOARD_ADMIN_KEY: ADMIN_KEY,
    SWITCHBOARD_SANDBOX_QR_DELAY_MS: String(QR_DELAY_MS),
    SWITCHBOARD_SANDBOX_CONNECT_DELAY_MS: String(CONNECT_DELAY_MS),
    // Polling the status with the master key must never trip its general limit (rate tests set their own).
    SWITCHBOARD_RATE_LIMIT_GENERAL: '100000',
    SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '20',
    SWITCHBOARD_WEBHOOK_RETRY_MAX_MS: '200',
    ...options.env,
  })
  const server = await startServer(config, { clock, graceMs: 1000 })
  const e2e: E2e = {
    server,
    config,
    clock,
    dataDir,
    url: server.url,
    admin: new Api(server.url, ADMIN_KEY),
    as: (key) => new Api(server.url, key),
    close: () => server.close(),
    restart: async () => {
      await server.close()
      return startE2e({ ...options, dataDir, clock })
    },
  }
  return e2e
}
