/**
 * The sandbox control API on a bare `node:http` server, for the standalone emulator process
 * (`switchboard-sandbox`): the same operation table and routes the service mounts, the same
 * answers (`{ success: true, … }` or `{ success: false, error }`), optionally behind a key.
 * @module
 */
import { timingSafeEqual, createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { GatewayError, isGatewayError, silentLogger } from '@switchboard/core'
import type { Logger } from '@switchboard/core'
import { SANDBOX_OPERATIONS, SANDBOX_ROUTES } from '../../control.js'
import type { Sandbox } from '../../sandbox-api.js'

export interface ControlServer {
  /** `http://host:port`. */
  url: string
  port: number
  close(): Promise<void>
}

export interface ControlServerOptions {
  /** @default 0 (a free port) */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** When set, every call needs it in `X-API-Key`. */
  adminKey?: string
  logger?: Logger
}

const MAX_BODY_BYTES = 1024 * 1024

interface Route {
  name: keyof typeof SANDBOX_OPERATIONS
  method: string
  pattern: RegExp
}

const ROUTES: Route[] = Object.entries(SANDBOX_ROUTES).map(([name, route]) => ({
  name: name as keyof typeof SANDBOX_OPERATIONS,
  method: route.method,
  pattern: new RegExp(`^${route.path.replace(/:([a-zA-Z]+)/g, '(?<$1>[^/]+)')}$`),
}))

const digest = (s: string): Buffer => createHash('sha256').update(s).digest()

/** Serves the control API of `sandbox` on its own port. */
export async function listenControl(sandbox: Sandbox, options: ControlServerOptions = {}): Promise<ControlServer> {
  const logger = options.logger ?? silentLogger
  const keyDigest = options.adminKey === undefined ? undefined : digest(options.adminKey)
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://control')
    if (keyDigest) {
      const given = req.headers['x-api-key']
      if (typeof given !== 'string' || given === '') return answer(res, new GatewayError('API_KEY_REQUIRED'))
      if (!timingSafeEqual(digest(given), keyDigest)) return answer(res, new GatewayError('API_KEY_INVALID'))
    }
    for (const route of ROUTES) {
      const match = route.pattern.exec(url.pathname)
      if (!match || route.method !== req.method) continue
      const body = req.method === 'POST' ? await readJson(req) : {}
      const params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]))
      const operation = SANDBOX_OPERATIONS[route.name] as { successStatus?: number; run(s: Sandbox, input: unknown): Promise<object> }
      const result = await operation.run(sandbox, { ...Object.fromEntries(url.searchParams), ...body, ...params })
      return send(res, operation.successStatus ?? 200, { success: true, ...result })
    }
    answer(res, new GatewayError('ROUTE_NOT_FOUND'))
  }

  function answer(res: ServerResponse, err: unknown): void {
    const error = isGatewayError(err) ? err : new GatewayError('INTERNAL')
    send(res, error.status, { success: false, error: error.message })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!isGatewayError(err)) logger.error({ err, method: req.method, url: req.url }, 'sandbox control call failed')
      answer(res, err)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new GatewayError('INVALID_JSON_BODY')
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (text === '') return {}
  try {
    const value = JSON.parse(text) as unknown
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object')
    return value as Record<string, unknown>
  } catch {
    throw new GatewayError('INVALID_JSON_BODY')
  }
}

function send(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}
