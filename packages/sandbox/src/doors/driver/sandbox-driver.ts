/**
 * The in-process door: a {@link NetworkDriver} over the sandbox world. Operations act as the
 * account the session is linked to; what the world says to the session arrives as driver events.
 * @module
 */
import { TypedEmitter } from '@switchboard/core'
import type {
  ChatOp,
  ChatOpResults,
  ContactOp,
  ContactOpResults,
  DriverEventName,
  DriverEvents,
  GroupOp,
  GroupOpResults,
  MediaPayload,
  MessageOp,
  MessageOpResults,
  MessageRef,
  NetworkDriver,
  OpenOptions,
  OpOf,
  ProfileOp,
  ProfileOpResults,
  SendRequest,
  SentMessage,
} from '@switchboard/core'
import type { FaultOp } from '../../faults.js'
import type { Runtime } from '../../runtime.js'
import type { Notice } from '../../world/notices.js'
import { runChatOp, runContactOp, runGroupOp, runMessageOp, runProfileOp } from '../port-ops.js'
import { Connections } from './connections.js'

export class SandboxDriver implements NetworkDriver {
  readonly name = 'sandbox'
  readonly #events: TypedEmitter<DriverEvents>
  readonly #connections: Connections
  readonly #unsubscribe: () => void

  constructor(private readonly rt: Runtime) {
    this.#events = new TypedEmitter<DriverEvents>((err, event) => rt.logger.warn({ err, event }, 'driver listener failed'))
    this.#connections = new Connections(rt, this.#events)
    this.#unsubscribe = rt.world.subscribe({
      notice: (sessionId, n) => this.#onNotice(sessionId, n),
      linked: (link) => this.#connections.linked(link),
      unlinked: (link, by) => this.#connections.unlinked(link, by),
    })
  }

  async open(sessionId: string, options: OpenOptions): Promise<void> {
    this.rt.faults.check('open', sessionId)
    await this.#connections.open(sessionId, options.auth)
  }

  async requestPairingCode(sessionId: string, phoneDigits: string): Promise<string> {
    this.rt.faults.check('requestPairingCode', sessionId)
    return this.#connections.requestPairingCode(sessionId, phoneDigits)
  }

  async close(sessionId: string, options: { logout?: boolean } = {}): Promise<void> {
    this.rt.faults.check('close', sessionId)
    await this.#connections.close(sessionId, options.logout === true)
  }

  async send(sessionId: string, request: SendRequest): Promise<SentMessage> {
    this.rt.faults.check('send', sessionId)
    const phone = this.#connections.requireOpen(sessionId, true)
    const message = this.rt.world.messages.send(
      phone,
      { to: request.to, content: request.content, ...(request.quoted ? { quotedId: request.quoted.id } : {}) },
      sessionId,
    )
    await this.rt.commit()
    return { id: message.id, to: message.to, timestampMs: message.atMs }
  }

  message<K extends MessageOp['op']>(sessionId: string, op: OpOf<MessageOp, K>): Promise<MessageOpResults[K]> {
    return this.#run(sessionId, 'message', (actor) => runMessageOp(this.rt.world, actor, op) as MessageOpResults[K])
  }

  chat<K extends ChatOp['op']>(sessionId: string, op: OpOf<ChatOp, K>): Promise<ChatOpResults[K]> {
    return this.#run(sessionId, 'chat', (actor) => runChatOp(this.rt.world, actor, op) as ChatOpResults[K])
  }

  group<K extends GroupOp['op']>(sessionId: string, op: OpOf<GroupOp, K>): Promise<GroupOpResults[K]> {
    return this.#run(sessionId, 'group', (actor) => runGroupOp(this.rt.world, actor, op) as GroupOpResults[K])
  }

  profile<K extends ProfileOp['op']>(sessionId: string, op: OpOf<ProfileOp, K>): Promise<ProfileOpResults[K]> {
    return this.#run(sessionId, 'profile', (actor) => runProfileOp(this.rt.world, actor, op) as ProfileOpResults[K])
  }

  contact<K extends ContactOp['op']>(sessionId: string, op: OpOf<ContactOp, K>): Promise<ContactOpResults[K]> {
    return this.#run(sessionId, 'contact', (actor) => runContactOp(this.rt.world, actor, op) as ContactOpResults[K])
  }

  downloadMedia(sessionId: string, message: MessageRef): Promise<MediaPayload> {
    return this.#run(sessionId, 'downloadMedia', ({ phone }) => this.rt.world.actions.media(phone, message))
  }

  on<E extends DriverEventName>(event: E, listener: (payload: DriverEvents[E]) => void): () => void {
    return this.#events.on(event, listener)
  }

  async shutdown(): Promise<void> {
    await this.#connections.shutdown()
  }

  /** The network drops the session's connection (a sandbox fault); it comes back by itself. */
  drop(sessionId: string): void {
    this.#connections.drop(sessionId)
  }

  /** Resolves once pending connection steps (creds writes, logouts) are done. */
  idle(): Promise<void> {
    return this.#connections.idle()
  }

  /** Stops listening to the world (the sandbox is closing). */
  detach(): void {
    this.#unsubscribe()
    this.#events.removeAll()
  }

  async #run<R>(sessionId: string, fault: FaultOp, fn: (actor: { phone: string; origin: string }) => R): Promise<R> {
    this.rt.faults.check(fault, sessionId)
    const phone = this.#connections.requireOpen(sessionId, false)
    const result = fn({ phone, origin: sessionId })
    await this.rt.commit()
    return result
  }

  #onNotice(sessionId: string, n: Notice): void {
    if (!this.#connections.owns(sessionId)) return
    if (this.#connections.isOpen(sessionId)) {
      this.#events.emit(n.event, { sessionId, ...n.payload } as never)
      return
    }
    // It went offline between the operation and the delivery: keep it for the next open.
    if (!this.rt.world.links.get(sessionId)) return
    this.rt.world.requeue(sessionId, n)
    void this.rt.commit().catch((err: unknown) => this.rt.logger.error({ err, sessionId }, 'sandbox requeue failed'))
  }
}
