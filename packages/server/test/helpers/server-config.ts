import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, type ServerConfig } from '../../src/config.js'

/**
 * Settings for a server under test: a fresh temp data dir, a free port on 127.0.0.1, the memory
 * store and the sandbox network, no process.env or argv. `env` overrides any variable.
 */
export function testConfig(env: Record<string, string> = {}): ServerConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-server-'))
  return loadConfig({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      SWITCHBOARD_DATA_DIR: dataDir,
      SWITCHBOARD_STORE: 'memory',
      SWITCHBOARD_NETWORK: 'sandbox',
      LOG_LEVEL: 'silent',
      ...env,
    },
    argv: [],
  })
}
