/**
 * One client WebSocket: intro and framing, the Noise handshake, then encrypted WABinary nodes in
 * both directions. What the nodes mean is the emulator's business ({@link ConnectionHandler}).
 * @module
 */
import { randomBytes } from 'node:crypto'
import { decodeBinaryNode, encodeBinaryNode, type proto } from '@whiskeysockets/baileys'
import type { WebSocket } from 'ws'
import type { Logger } from '@switchboard/core'
import { FrameReader, NoiseHandshake, frame, type NoiseTransport } from './noise.js'
import { node, type BinaryNode } from './nodes.js'

export interface ConnectionHandler {
  /** The handshake finished: the client's static key and its ClientPayload (login or registration). */
  onPayload(conn: WireConnection, clientStatic: Buffer, payload: proto.ClientPayload): Promise<void>
  /** A node arrived that is not the answer to one of our queries. */
  onNode(conn: WireConnection, stanza: BinaryNode): Promise<void>
  onClose(conn: WireConnection): void
}

let nextConnectionId = 1

/** A fresh stanza id in WhatsApp's style (uppercase hex). */
export const stanzaId = (): string => randomBytes(8).toString('hex').toUpperCase()

export class WireConnection {
  readonly id = nextConnectionId++
  readonly #reader = new FrameReader()
  readonly #waiting = new Map<string, (node: BinaryNode) => void>()
  #handshake: NoiseHandshake | undefined
  #transport: NoiseTransport | undefined
  #stage: 'hello' | 'finish' | 'open' | 'closed' = 'hello'
  #chain: Promise<void> = Promise.resolve()
  #handlers: Promise<void> = Promise.resolve()
  /** Free-form state the emulator attaches (device, registration, …). */
  context: Record<string, unknown> = {}
  /** Resolves once the socket is gone. */
  readonly closed: Promise<void>
  #resolveClosed!: () => void

  constructor(
    private readonly ws: WebSocket,
    handshake: NoiseHandshake,
    private readonly handler: ConnectionHandler,
    private readonly logger: Logger,
  ) {
    this.#handshake = handshake
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve))
    ws.on('message', (data: Buffer) => {
      this.#chain = this.#chain.then(() => this.#onData(data)).catch((err: unknown) => this.#fatal(err))
    })
    ws.on('close', () => this.#closed())
    ws.on('error', () => this.#closed())
  }

  get isOpen(): boolean {
    return this.#stage === 'open'
  }

  /** Sends a node (dropped silently once closed). */
  send(stanza: BinaryNode): void {
    if (this.#stage !== 'open' || !this.#transport) return
    this.logger.trace({ conn: this.id, tag: stanza.tag, attrs: stanza.attrs }, 'wire send')
    this.ws.send(frame(this.#transport.encrypt(encodeBinaryNode(stanza))))
  }

  /** Sends an IQ and resolves with the client's answer (the connection closing rejects). */
  query(stanza: BinaryNode): Promise<BinaryNode> {
    const id = stanza.attrs.id ?? stanzaId()
    stanza.attrs.id = id
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, resolve)
      this.ws.once('close', () => reject(new Error('connection closed')))
      this.send(stanza)
    })
  }

  /** Sends `<stream:error>` and closes, as the server does before a restart, conflict or unlink. */
  streamError(attrs: Record<string, string>, content?: BinaryNode[]): void {
    this.send(node('stream:error', attrs, content))
    this.#end()
  }

  /** Sends `<failure reason=…>` and closes (login refused). */
  failure(reason: number): void {
    this.send(node('failure', { reason: String(reason) }))
    this.#end()
  }

  /** Drops the socket without a word, as a network failure would. */
  terminate(): void {
    this.#stage = 'closed'
    this.ws.terminate()
  }

  #end(): void {
    this.#stage = 'closed'
    this.ws.close()
  }

  async #onData(data: Buffer): Promise<void> {
    if (this.#stage === 'closed') return
    for (const payload of this.#reader.push(data)) {
      if (this.#stage === 'hello') {
        this.#stage = 'finish'
        this.ws.send(frame(this.#handshake!.serverHello(payload)))
      } else if (this.#stage === 'finish') {
        const { clientStatic, payload: clientPayload, transport } = this.#handshake!.clientFinish(payload)
        this.#handshake = undefined
        this.#transport = transport
        this.#stage = 'open'
        this.#enqueue(() => this.handler.onPayload(this, clientStatic, clientPayload))
      } else if (this.#stage === 'open' && this.#transport) {
        const stanza = await decodeBinaryNode(this.#transport.decrypt(payload))
        this.logger.trace({ conn: this.id, tag: stanza.tag, attrs: stanza.attrs }, 'wire recv')
        const id = stanza.attrs.id
        const waiter = id !== undefined && (stanza.attrs.type === 'result' || stanza.attrs.type === 'error')
          ? this.#waiting.get(id)
          : undefined
        if (waiter && id !== undefined) {
          this.#waiting.delete(id)
          waiter(stanza)
        } else {
          this.#enqueue(() => this.handler.onNode(this, stanza))
        }
      }
    }
  }

  /** Handlers run in order on their own chain, so one may await a client answer. */
  #enqueue(fn: () => Promise<void>): void {
    this.#handlers = this.#handlers
      .then(() => (this.#stage === 'closed' ? undefined : fn()))
      .catch((err: unknown) => this.#fatal(err))
  }

  #fatal(err: unknown): void {
    this.logger.warn({ conn: this.id, err }, 'wire connection failed')
    this.terminate()
  }

  #closed(): void {
    this.#stage = 'closed'
    if (this.#notified) return
    this.#notified = true
    this.#waiting.clear()
    this.#resolveClosed()
    this.handler.onClose(this)
  }

  #notified = false
}
