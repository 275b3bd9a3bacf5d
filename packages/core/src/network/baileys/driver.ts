/**
 * The production network driver: WhatsApp through Baileys 7.0.0-rc14. One {@link SessionRuntime}
 * per open session; every operation runs on that session's live socket and every Baileys error is
 * translated into the GatewayError catalog here.
 * @module
 */
import { generateMessageIDV2, isPnUser } from '@whiskeysockets/baileys'
import { GatewayError } from '../../errors/index.js'
import { TypedEmitter } from '../../kernel/emitter.js'
import type { AuthStore, DriverEventName, DriverEvents, NetworkDriver, OpenOptions } from '../driver.js'
import type {
  ChatOp,
  ChatOpResults,
  ContactOp,
  ContactOpResults,
  GroupOp,
  GroupOpResults,
  MessageOp,
  MessageOpResults,
  OpOf,
  ProfileOp,
  ProfileOpResults,
} from '../operations.js'
import type { MediaPayload, MessageRef, SendRequest, SentMessage } from '../types.js'
import { runChatOp } from './chat-ops.js'
import { messageToRaw, numberOf } from './codec.js'
import { buildContent, quotedMessage } from './content.js'
import { translated } from './errors.js'
import { runGroupOp } from './groups.js'
import { downloadMedia } from './media.js'
import { runMessageOp } from './message-ops.js'
import { runContactOp, checkNumbers } from './profile-contacts.js'
import { runProfileOp } from './profile-contacts.js'
import { resolveSettings, type BaileysDriverOptions, type ResolvedSettings } from './settings.js'
import { SessionRuntime } from './session.js'
import type { BaileysSocket } from './socket.js'

/** How long a number found registered is trusted before sends check it again. */
export const REGISTERED_TTL_MS = 24 * 60 * 60_000

export class BaileysDriver implements NetworkDriver {
  readonly name = 'whatsapp'
  readonly #settings: ResolvedSettings
  readonly #sessions = new Map<string, SessionRuntime>()
  readonly #opening = new Map<string, Promise<void>>()
  /** The auth store each session last opened with, so logout can wipe a stopped session. */
  readonly #authStores = new Map<string, AuthStore>()
  readonly #registered = new Map<string, number>()
  readonly #events: TypedEmitter<DriverEvents>

  constructor(options: BaileysDriverOptions) {
    this.#settings = resolveSettings(options)
    this.#events = new TypedEmitter<DriverEvents>((err, event) =>
      this.#settings.logger.error({ err, event }, 'driver event listener failed'),
    )
  }

  async open(sessionId: string, options: OpenOptions): Promise<void> {
    const pending = this.#opening.get(sessionId)
    if (pending) return pending
    if (this.#sessions.has(sessionId)) return
    this.#authStores.set(sessionId, options.auth)
    const runtime = new SessionRuntime(
      sessionId,
      options.auth,
      this.#settings,
      (event, payload) => this.#events.emit(event, payload),
      (ended) => {
        if (this.#sessions.get(sessionId) === ended) this.#sessions.delete(sessionId)
      },
    )
    this.#sessions.set(sessionId, runtime)
    const starting = runtime.start().catch((err: unknown) => {
      if (this.#sessions.get(sessionId) === runtime) this.#sessions.delete(sessionId)
      throw new GatewayError('INTERNAL', undefined, { cause: err })
    })
    this.#opening.set(sessionId, starting)
    try {
      await starting
    } finally {
      this.#opening.delete(sessionId)
    }
  }

  async requestPairingCode(sessionId: string, phoneDigits: string): Promise<string> {
    const runtime = this.#sessions.get(sessionId)
    if (!runtime || runtime.phase === 'ended') throw new GatewayError('SESSION_NOT_STARTED')
    if (runtime.linked || runtime.phase === 'open') throw new GatewayError('ALREADY_AUTHENTICATED')
    const digits = phoneDigits.replace(/\D/g, '')
    if (!/^\d{8,15}$/.test(digits)) throw new GatewayError('INVALID_PHONE_NUMBER')
    // Baileys can only take the request once the socket shows a QR (the noise handshake is done).
    if (!(await runtime.waitForQr(this.#settings.pairingWaitMs))) {
      throw new GatewayError('QR_NOT_AVAILABLE', { state: 'starting' })
    }
    const sock = runtime.pairingSocket
    if (!sock) throw new GatewayError('SESSION_NOT_STARTED')
    return translated('pairing', () => sock.requestPairingCode(digits))
  }

  async close(sessionId: string, options?: { logout?: boolean }): Promise<void> {
    await this.#opening.get(sessionId)?.catch(() => {})
    const runtime = this.#sessions.get(sessionId)
    const logout = options?.logout === true
    if (runtime) {
      this.#sessions.delete(sessionId)
      await runtime.close(logout)
    } else if (logout) {
      await this.#authStores.get(sessionId)?.clear()
    }
    if (logout) this.#authStores.delete(sessionId)
  }

  async send(sessionId: string, request: SendRequest): Promise<SentMessage> {
    const { runtime, sock } = this.#live(sessionId)
    if (isPnUser(request.to)) await this.#ensureRegistered(runtime, sock, request.to)
    const messageId = generateMessageIDV2(sock.user?.id)
    runtime.tracker.markSent(messageId)
    const content = buildContent(request.content)
    const options = { messageId, ...(request.quoted ? { quoted: quotedMessage(request.quoted) } : {}) }
    const sent = await translated('send', () => sock.sendMessage(request.to, content, options))
    if (!sent?.key.id) throw new GatewayError('INTERNAL')
    if (sent.key.id !== messageId) runtime.tracker.markSent(sent.key.id)
    await runtime.sent.save(sent).catch((err: unknown) => this.#settings.logger.error({ err, sessionId }, 'recording a sent message failed'))
    const timestampSec = numberOf(sent.messageTimestamp)
    return {
      id: sent.key.id,
      to: request.to,
      timestampMs: timestampSec > 0 ? timestampSec * 1000 : this.#settings.clock.now(),
      raw: messageToRaw(sent),
    }
  }

  async message<K extends MessageOp['op']>(sessionId: string, op: OpOf<MessageOp, K>): Promise<MessageOpResults[K]> {
    return runMessageOp(this.#live(sessionId).sock, op)
  }

  async chat<K extends ChatOp['op']>(sessionId: string, op: OpOf<ChatOp, K>): Promise<ChatOpResults[K]> {
    return runChatOp(this.#live(sessionId).sock, op)
  }

  async group<K extends GroupOp['op']>(sessionId: string, op: OpOf<GroupOp, K>): Promise<GroupOpResults[K]> {
    const { runtime, sock } = this.#live(sessionId)
    return runGroupOp({ sock, identity: runtime.identity, cache: runtime.groups }, op)
  }

  async profile<K extends ProfileOp['op']>(sessionId: string, op: OpOf<ProfileOp, K>): Promise<ProfileOpResults[K]> {
    const { runtime, sock } = this.#live(sessionId, 'NOT_AUTHENTICATED')
    const me = runtime.me()
    if (!me) throw new GatewayError('NOT_AUTHENTICATED')
    return runProfileOp({ sock, me }, op)
  }

  async contact<K extends ContactOp['op']>(sessionId: string, op: OpOf<ContactOp, K>): Promise<ContactOpResults[K]> {
    const { runtime, sock } = this.#live(sessionId, 'NOT_AUTHENTICATED')
    return runContactOp({ sock, identity: runtime.identity }, op)
  }

  async downloadMedia(sessionId: string, message: MessageRef): Promise<MediaPayload> {
    const { runtime, sock } = this.#live(sessionId)
    const init = this.#settings.socketConfig.options
    return downloadMedia(
      { sock, download: this.#settings.downloadMedia, logger: this.#settings.logger.child({ sessionId: runtime.sessionId }), ...(init ? { requestInit: init } : {}) },
      message,
    )
  }

  on<E extends DriverEventName>(event: E, listener: (payload: DriverEvents[E]) => void): () => void {
    return this.#events.on(event, listener)
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id)))
  }

  /** Waits until queued Baileys events of a session are handled (for tests). */
  async idle(sessionId: string): Promise<void> {
    await this.#sessions.get(sessionId)?.idle()
  }

  #live(sessionId: string, notReadyCode?: 'NOT_AUTHENTICATED'): { runtime: SessionRuntime; sock: BaileysSocket } {
    const runtime = this.#sessions.get(sessionId)
    const sock = runtime?.socket
    if (!runtime || !sock) throw notReadyCode ? new GatewayError(notReadyCode) : notReady(sessionId, runtime)
    return { runtime, sock }
  }

  /** Sending to unregistered numbers fails fast (and is a spam signal we avoid). */
  async #ensureRegistered(runtime: SessionRuntime, sock: BaileysSocket, jid: string): Promise<void> {
    const key = `${runtime.sessionId}|${jid}`
    const until = this.#registered.get(key)
    if (until !== undefined && until > this.#settings.clock.now()) return
    if (await runtime.identity.lidForPn(jid)) return
    const [check] = await checkNumbers({ sock, identity: runtime.identity }, [jid.split('@')[0]!])
    if (!check?.exists) throw new GatewayError('NUMBER_NOT_REGISTERED')
    this.#registered.set(key, this.#settings.clock.now() + REGISTERED_TTL_MS)
  }
}

/** The error for an operation on a session that cannot take it right now. */
export function notReady(sessionId: string, runtime: SessionRuntime | undefined): GatewayError {
  if (!runtime || runtime.phase === 'ended') return new GatewayError('SESSION_NOT_AUTHENTICATED', { sessionId })
  if (runtime.linked) return new GatewayError('SESSION_CONNECTING')
  return new GatewayError('SESSION_NOT_AUTHENTICATED', { sessionId })
}

/** Creates the Baileys driver (`SWITCHBOARD_NETWORK=whatsapp`). */
export function createBaileysDriver(options: BaileysDriverOptions): BaileysDriver {
  return new BaileysDriver(options)
}
