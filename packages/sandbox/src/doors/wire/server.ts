/**
 * The loopback WebSocket server in front of a {@link WaEmulator}: `ws://host:port/ws/chat`, the
 * path Baileys' `waWebSocketUrl` points at.
 * @module
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { WaEmulator } from './emulator.js'

export interface WireServer {
  /** `ws://host:port/ws/chat`. */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/** Listens on `host:port` (port 0 picks a free one) and hands every socket to the emulator. */
export async function listenWire(emulator: WaEmulator, opts: { port?: number; host?: string } = {}): Promise<WireServer> {
  const host = opts.host ?? '127.0.0.1'
  const http: Server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only')
  })
  const wss = new WebSocketServer({ server: http, path: '/ws/chat' })
  wss.on('connection', (ws) => emulator.accept(ws))
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(opts.port ?? 0, host, () => resolve())
  })
  const port = (http.address() as AddressInfo).port
  return {
    url: `ws://${host}:${port}/ws/chat`,
    port,
    async close() {
      emulator.closeAll()
      for (const client of wss.clients) client.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
