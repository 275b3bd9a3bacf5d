/**
 * Listening and graceful closing: stop accepting, let in-flight requests finish, then resolve.
 * @module
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type Koa from 'koa'

export interface Listening {
  server: Server
  /** The bound port (the real one when 0 was asked). */
  port: number
  /** `http://HOST:PORT` with the configured host. */
  url: string
  /** Stops accepting, waits for in-flight requests (at most `graceMs`), closes every connection. */
  close(): Promise<void>
}

export interface ListenOptions {
  port: number
  host: string
  /** Requests still running after this long are cut off. @default 10000 */
  graceMs?: number
}

export async function listen(app: Koa, options: ListenOptions): Promise<Listening> {
  const server = createServer(app.callback())
  const inFlight = new Set<ServerResponse>()
  let closing: Promise<void> | undefined
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res)
    res.on('close', () => {
      inFlight.delete(res)
      // A finished keep-alive connection would otherwise hold the close for its idle timeout.
      if (closing !== undefined) server.closeIdleConnections()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false
        const force = setTimeout(() => server.closeAllConnections(), options.graceMs ?? 10_000)
        force.unref()
        server.close((err) => {
          clearTimeout(force)
          if (err) reject(err)
          else resolve()
        })
        server.closeIdleConnections()
      })
      return closing
    },
  }
}
