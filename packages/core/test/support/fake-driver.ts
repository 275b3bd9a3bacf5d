/**
 * A scripted NetworkDriver for core's own tests: it does what the test tells it, records what the
 * gateway asked, and emits events on demand. Tests that need a whole world use the sandbox.
 */
import { GatewayError } from '../../src/errors/index.js'
import { TypedEmitter } from '../../src/kernel/emitter.js'
import type { Clock } from '../../src/kernel/clock.js'
import type { AuthStore, ConnectionUpdate, DriverEvents, NetworkDriver } from '../../src/network/driver.js'
import type { InboundMessage, Me, SendRequest } from '../../src/network/types.js'

export class FakeDriver implements NetworkDriver {
  readonly name = 'fake'
  readonly events = new TypedEmitter<DriverEvents>()
  readonly sent: { sessionId: string; request: SendRequest }[] = []
  readonly calls: { method: string; sessionId: string; arg?: unknown }[] = []
  readonly auth = new Map<string, AuthStore>()
  readonly registered = new Set<string>()
  readonly open_ = new Set<string>()
  #n = 0
  #failNext: Error | undefined

  constructor(private readonly clock: Clock) {}

  on<E extends keyof DriverEvents>(event: E, fn: (payload: DriverEvents[E]) => void): () => void {
    return this.events.on(event, fn)
  }

  emitUpdate(sessionId: string, update: ConnectionUpdate): void {
    this.events.emit('connection.update', { sessionId, ...update } as DriverEvents['connection.update'])
  }

  async open(sessionId: string, { auth }: { auth: AuthStore }): Promise<void> {
    this.calls.push({ method: 'open', sessionId })
    this.auth.set(sessionId, auth)
    this.open_.add(sessionId)
    this.emitUpdate(sessionId, { state: 'starting' })
    const creds = (await auth.readCreds()) as { me?: Me } | undefined
    if (creds?.me) {
      this.emitUpdate(sessionId, { state: 'connecting' })
      this.emitUpdate(sessionId, { state: 'open', me: creds.me })
    }
  }

  /** Shows a QR (as a real network does after `starting`). */
  showQr(sessionId: string, qr = `fake-qr-${++this.#n}`): string {
    this.emitUpdate(sessionId, { state: 'qr', qr })
    return qr
  }

  /** Links the session to `phone`, as a scan would. */
  async link(sessionId: string, phone = '15550001111'): Promise<Me> {
    const me: Me = { jid: `${phone}@s.whatsapp.net`, phoneNumber: phone }
    await this.auth.get(sessionId)!.writeCreds({ me })
    this.emitUpdate(sessionId, { state: 'connecting' })
    this.emitUpdate(sessionId, { state: 'authenticated', me })
    this.emitUpdate(sessionId, { state: 'open', me })
    return me
  }

  receive(sessionId: string, message: Partial<InboundMessage> & { id: string }): void {
    this.events.emit('message.received', {
      sessionId,
      message: {
        chatId: '15550002222@s.whatsapp.net',
        from: '15550002222@s.whatsapp.net',
        to: '15550001111@s.whatsapp.net',
        fromMe: false,
        isGroup: false,
        type: 'conversation',
        body: 'hello',
        timestampSec: Math.floor(this.clock.now() / 1000),
        ...message,
      },
    })
  }

  failNext(error: Error): void {
    this.#failNext = error
  }

  async requestPairingCode(sessionId: string, phoneDigits: string): Promise<string> {
    this.calls.push({ method: 'requestPairingCode', sessionId, arg: phoneDigits })
    return 'ABCD1234'
  }

  async close(sessionId: string, options?: { logout?: boolean }): Promise<void> {
    this.calls.push({ method: 'close', sessionId, arg: options })
    this.open_.delete(sessionId)
    if (options?.logout) await this.auth.get(sessionId)?.clear()
    this.emitUpdate(sessionId, { state: 'closed' })
  }

  async send(sessionId: string, request: SendRequest) {
    if (this.#failNext) {
      const err = this.#failNext
      this.#failNext = undefined
      throw err
    }
    this.sent.push({ sessionId, request })
    const id = `MSG${++this.#n}`
    this.events.emit('message.status', { sessionId, messageId: id, chatId: request.to, status: 'delivered', timestampSec: Math.floor(this.clock.now() / 1000) })
    return { id, to: request.to, timestampMs: this.clock.now(), raw: { fake: true, id } }
  }

  async message(): Promise<never> {
    throw new GatewayError('NETWORK_UNAVAILABLE')
  }

  async chat(): Promise<never> {
    throw new GatewayError('NETWORK_UNAVAILABLE')
  }

  async group(): Promise<never> {
    throw new GatewayError('NETWORK_UNAVAILABLE')
  }

  async profile(): Promise<never> {
    throw new GatewayError('NETWORK_UNAVAILABLE')
  }

  async contact(sessionId: string, op: { op: string; phones?: string[] }): Promise<never> {
    this.calls.push({ method: 'contact', sessionId, arg: op })
    if (op.op !== 'check') throw new GatewayError('NETWORK_UNAVAILABLE')
    return op.phones!.map((phone) => ({ phone, jid: `${phone}@s.whatsapp.net`, exists: this.registered.has(phone) })) as never
  }

  async downloadMedia(): Promise<never> {
    throw new GatewayError('MESSAGE_NOT_FOUND')
  }

  async shutdown(): Promise<void> {
    this.open_.clear()
  }
}
