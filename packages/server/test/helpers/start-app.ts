import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Logger } from '@switchboard/core'
import { createApp, type AppOptions } from '../../src/app.js'
import { listen } from '../../src/http-server.js'
import type { Surface } from '../../src/route-spec.js'
import { fakeApi, type gate } from './fake-api.js'
import { fakeGateway, type FakeGateway } from './fake-gateway.js'

export interface LogLine {
  level: string
  obj: Record<string, unknown>
  msg: string | undefined
}

/** A pino-shaped logger that keeps its lines. */
export function memoryLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const at =
    (level: string) =>
    (objOrMsg: object | string, msg?: string): void => {
      if (typeof objOrMsg === 'string') lines.push({ level, obj: {}, msg: objOrMsg })
      else lines.push({ level, obj: objOrMsg as Record<string, unknown>, msg })
    }
  const logger = {
    lines,
    level: 'trace',
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
  }
  return logger
}

export interface TestApp {
  url: string
  gateway: FakeGateway
  logs: LogLine[]
  slow: ReturnType<typeof gate>
  close(): Promise<void>
}

/** createApp over the fake gateway and fake table, listening on 127.0.0.1 at a free port. */
export async function startApp({ limit, ...overrides }: Partial<AppOptions> & { limit?: number; api?: Surface } = {}): Promise<TestApp> {
  const gateway = fakeGateway(limit)
  const api = fakeApi(gateway)
  const logger = memoryLogger()
  const app = createApp({
    gateway,
    api,
    logger,
    config: { dataDir: mkdtempSync(join(tmpdir(), 'switchboard-server-')) },
    ...overrides,
  })
  const listening = await listen(app, { port: 0, host: '127.0.0.1' })
  return { url: listening.url, gateway, logs: logger.lines, slow: api.slow, close: () => listening.close() }
}

/** fetch + parsed JSON body. */
export async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, init)
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON (docs assets)
  }
  return { status: res.status, headers: res.headers, body }
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
})
