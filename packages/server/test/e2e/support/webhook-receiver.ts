import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Json } from './api.js'
import { waitFor, type WaitOptions } from './wait.js'

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  method: string
  /** Path and query string. */
  path: string
  headers: IncomingHttpHeaders
  /** The body exactly as received (what the signature covers). */
  raw: string
  body: Json
  /** The status the receiver answered. */
  answered: number
}

/**
 * A real webhook receiver on 127.0.0.1 (ephemeral port, kept across `down()` / `up()`). It records
 * every request, answers 200 unless told to fail, and can be taken down (port closed) and back up.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = []
  #server: Server | undefined
  #port = 0
  #failures: number[] = []

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver()
    await receiver.up()
    return receiver
  }

  /** The webhook URL to give the server (`path` may carry a query string). */
  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.#port}${path}`
  }

  /** The next `times` requests are answered `status`. */
  failNext(times: number, status = 500): void {
    this.#failures.push(...Array<number>(times).fill(status))
  }

  /** Requests answered 2xx: the events delivered, in arrival order. */
  delivered(): ReceivedRequest[] {
    return this.requests.filter((r) => r.answered >= 200 && r.answered < 300)
  }

  /** Bodies of the delivered events of one session (all sessions when omitted). */
  events(sessionId?: string): Json[] {
    return this.delivered()
      .map((r) => r.body)
      .filter((b) => sessionId === undefined || b.sessionId === sessionId)
  }

  /** Names of the delivered events of one session, in order. */
  names(sessionId?: string): string[] {
    return this.events(sessionId).map((e) => String(e.event))
  }

  /** Waits for a delivered event matching `match` and resolves with it. */
  waitForEvent(match: (event: Json) => boolean, options: WaitOptions = {}): Promise<Json> {
    return waitFor(() => this.events().find(match), { what: 'a webhook event', ...options })
  }

  /** Closes the port: deliveries fail with a refused connection until {@link up}. */
  async down(): Promise<void> {
    const server = this.#server
    if (!server) return
    this.#server = undefined
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }

  /** Listens again, on the same port once it had one. */
  async up(): Promise<void> {
    if (this.#server) return
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const answered = this.#failures.shift() ?? 200
        let body: Json = {}
        try {
          body = JSON.parse(raw) as Json
        } catch {
          // recorded as received; a test on the body will fail on its own
        }
        this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, answered })
        res.writeHead(answered, { 'Content-Type': 'text/plain' }).end(answered === 200 ? 'ok' : 'fail')
      })
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.#port, '127.0.0.1', () => resolve())
    })
    this.#port = (server.address() as AddressInfo).port
    this.#server = server
  }

  close(): Promise<void> {
    return this.down()
  }
}
