/**
 * One session's connection: a single live socket at a time, Baileys' `connection.update` mapped
 * onto the port's {@link ConnectionUpdate}, and the reconnect policy applied on every close.
 * The auth state is loaded once per `open` and reused by every socket of that run (the restart
 * after pairing must not re-read creds whose save may not have landed).
 * @module
 */
import {
  isJidNewsletter,
  isJidStatusBroadcast,
  jidNormalizedUser,
  type ConnectionState,
  type UserFacingSocketConfig,
  type WAVersion,
} from '@whiskeysockets/baileys'
import type { TimerHandle } from '../../kernel/clock.js'
import type { Logger } from '../../kernel/logger.js'
import type { AuthStore, ConnectionUpdate, DriverEventName, DriverEvents } from '../driver.js'
import type { Me } from '../types.js'
import { isLinked, loadAuthState, type SessionAuthState } from './auth-state.js'
import { boundedCacheStore, MessageTracker } from './caches.js'
import { statusCodeOf } from './errors.js'
import { GroupCache } from './groups.js'
import { IdentityTable } from './identity.js'
import { attachEvents, type EventSink } from './inbound-events.js'
import { SentMessageStore } from './message-store.js'
import { decideOnClose } from './reconnect-policy.js'
import type { ResolvedSettings } from './settings.js'
import type { BaileysSocket } from './socket.js'

/** `ended` means the runtime is finished (closed, logged out or failed) and is dropped. */
export type Phase = 'starting' | 'qr' | 'connecting' | 'open' | 'waiting' | 'ended'

export class SessionRuntime implements EventSink {
  readonly identity: IdentityTable
  readonly groups: GroupCache
  readonly sent: SentMessageStore
  readonly tracker = new MessageTracker()
  readonly #logger: Logger
  readonly #retryCounters = boundedCacheStore()
  readonly #qrWaiters = new Set<(ok: boolean) => void>()
  #auth: SessionAuthState | undefined
  #sock: BaileysSocket | undefined
  #detach: (() => void) | undefined
  #phase: Phase = 'starting'
  #lastState: ConnectionUpdate['state'] | undefined
  #intentional = false
  #attempts = 0
  #qrRounds = 0
  #openedAt: number | undefined
  #timer: TimerHandle | undefined
  #queue: Promise<void> = Promise.resolve()

  constructor(
    readonly sessionId: string,
    readonly authStore: AuthStore,
    private readonly settings: ResolvedSettings,
    private readonly emitter: <E extends DriverEventName>(event: E, payload: DriverEvents[E]) => void,
    private readonly onEnded: (runtime: SessionRuntime) => void,
  ) {
    this.#logger = settings.logger.child({ sessionId })
    this.groups = new GroupCache(settings.clock)
    this.sent = new SentMessageStore(authStore)
    this.identity = new IdentityTable(authStore, (pairs) => {
      this.emit('identity.mapping', { sessionId, mappings: pairs })
      this.#sock?.signalRepository?.lidMapping.storeLIDPNMappings(pairs).catch((err: unknown) => {
        this.#logger.warn({ err }, 'feeding LID mappings to Baileys failed')
      })
    })
    this.identity.fallback = async (lid) => (await this.#sock?.signalRepository?.lidMapping.getPNForLID(lid)) ?? undefined
  }

  get phase(): Phase {
    return this.#phase
  }

  get linked(): boolean {
    return this.#auth ? isLinked(this.#auth.state.creds) : false
  }

  /** The live socket, when the connection is open. */
  get socket(): BaileysSocket | undefined {
    return this.#phase === 'open' ? this.#sock : undefined
  }

  async start(): Promise<void> {
    this.#update({ state: 'starting' })
    this.#auth = await loadAuthState(this.authStore, this.#logger)
    if (!this.#intentional) await this.#connect()
  }

  me(): Me | undefined {
    // creds.me is what Baileys keeps current (a name change updates it); sock.user is a copy taken
    // when the socket was built.
    const contact = this.#sock?.authState.creds.me ?? this.#auth?.state.creds.me ?? this.#sock?.user
    if (!contact?.id) return undefined
    const jid = jidNormalizedUser(contact.id)
    const me: Me = { jid, phoneNumber: jid.split('@')[0] ?? '' }
    if (contact.lid) me.lid = jidNormalizedUser(contact.lid)
    if (contact.name && contact.name !== '~') me.name = contact.name
    return me
  }

  nowSec(): number {
    return Math.floor(this.settings.clock.now() / 1000)
  }

  emit<E extends DriverEventName>(event: E, payload: DriverEvents[E]): void {
    this.emitter(event, payload)
  }

  enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((err: unknown) => this.#logger.error({ err }, 'handling a Baileys event failed'))
  }

  /** Resolves once queued event handling is done (tests and shutdown). */
  async idle(): Promise<void> {
    let current: Promise<void> | undefined
    while (current !== this.#queue) {
      current = this.#queue
      await current
    }
  }

  /** Resolves when the session shows a QR (false if it ended or the wait timed out). */
  waitForQr(timeoutMs: number): Promise<boolean> {
    if (this.#phase === 'qr') return Promise.resolve(true)
    if (this.#phase === 'ended') return Promise.resolve(false)
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        this.settings.clock.clearTimer(timer)
        this.#qrWaiters.delete(done)
        resolve(ok)
      }
      const timer = this.settings.clock.setTimer(() => done(false), timeoutMs)
      this.#qrWaiters.add(done)
    })
  }

  /** The socket while a QR is shown (pairing codes need it). */
  get pairingSocket(): BaileysSocket | undefined {
    return this.#phase === 'qr' ? this.#sock : undefined
  }

  async close(logout: boolean): Promise<void> {
    this.#intentional = true
    if (this.#timer) this.settings.clock.clearTimer(this.#timer)
    const sock = this.#sock
    if (sock) {
      if (logout) await sock.logout().catch((err: unknown) => this.#logger.warn({ err }, 'logout request failed'))
      await sock.end(undefined).catch(() => {})
      this.#detachSocket()
    }
    if (logout) await (this.#auth ? this.#auth.clear() : this.authStore.clear())
    else await this.#auth?.flush()
    this.#end({ state: 'closed' })
  }

  async #connect(): Promise<void> {
    const version = await this.settings.version()
    if (this.#intentional || !this.#auth) return
    if (this.#sock) throw new Error('a socket is already live for this session')
    const sock = this.settings.makeSocket(this.#config(version, this.#auth))
    this.#sock = sock
    const onConnection = (update: Partial<ConnectionState>) => this.#onConnection(sock, update)
    const onCreds = () => this.#auth?.saveCreds()
    sock.ev.on('connection.update', onConnection)
    sock.ev.on('creds.update', onCreds)
    const detachEvents = attachEvents(this, sock)
    this.#detach = () => {
      sock.ev.off('connection.update', onConnection)
      sock.ev.off('creds.update', onCreds)
      detachEvents()
    }
  }

  #config(version: WAVersion, auth: SessionAuthState): UserFacingSocketConfig {
    const { socketConfig, socketUrl, browser } = this.settings
    return {
      syncFullHistory: false,
      ...socketConfig,
      ...(socketUrl !== undefined ? { waWebSocketUrl: socketUrl } : {}),
      auth: auth.state,
      logger: this.#logger.child({ class: 'baileys' }),
      browser,
      version,
      markOnlineOnConnect: false,
      msgRetryCounterCache: this.#retryCounters,
      shouldIgnoreJid: (jid: string) => isJidStatusBroadcast(jid) || isJidNewsletter(jid) === true,
      getMessage: (key) => this.sent.get(key),
      cachedGroupMetadata: async (jid) => this.groups.get(jid),
    }
  }

  #onConnection(sock: BaileysSocket, update: Partial<ConnectionState>): void {
    if (sock !== this.#sock) return
    if (update.qr) {
      this.#phase = 'qr'
      this.#update({ state: 'qr', qr: update.qr })
      for (const wake of [...this.#qrWaiters]) wake(true)
    }
    if (update.isNewLogin) {
      this.#phase = 'connecting'
      this.#update({ state: 'connecting' })
      const me = this.me()
      if (me) this.#update({ state: 'authenticated', me })
    }
    if (update.connection === 'connecting' && this.linked && this.#lastState !== 'connecting' && this.#lastState !== 'authenticated') {
      this.#phase = 'connecting'
      this.#update({ state: 'connecting' })
    }
    if (update.connection === 'open') {
      this.#phase = 'open'
      this.#attempts = 0
      this.#qrRounds = 0
      this.#openedAt = this.settings.clock.now()
      const me = this.me()
      if (me) this.#update({ state: 'open', me })
    }
    if (update.connection === 'close') {
      this.#detachSocket()
      if (!this.#intentional) void this.#handleClose(update.lastDisconnect?.error)
    }
  }

  async #handleClose(error: unknown): Promise<void> {
    const { clock, reconnect, random } = this.settings
    if (this.#openedAt !== undefined && clock.now() - this.#openedAt >= reconnect.stableMs) this.#attempts = 0
    this.#openedAt = undefined
    const errorText = error instanceof Error ? error.message : 'Connection closed'
    const decision = decideOnClose(
      {
        statusCode: statusCodeOf(error),
        errorMessage: errorText,
        intentional: this.#intentional,
        linked: this.linked,
        attempts: this.#attempts,
        qrRounds: this.#qrRounds,
      },
      reconnect,
      random,
    )
    this.#logger.info({ err: error, decision }, 'connection closed')
    switch (decision.kind) {
      case 'closed':
        return
      case 'restart':
        if (decision.reason === 'qr_expired') this.#qrRounds += 1
        else this.#attempts += 1
        await this.#auth?.flush()
        return this.#reconnect()
      case 'backoff':
        this.#attempts += 1
        this.#phase = 'waiting'
        this.#update({ state: 'disconnected', reason: decision.reason, error: errorText, willReconnect: true })
        this.#timer = clock.setTimer(() => void this.#reconnect(), decision.delayMs)
        return
      case 'logged_out':
        await this.#auth?.clear()
        return this.#end({ state: 'logged_out', reason: decision.reason, error: errorText })
      case 'failed':
        await this.#auth?.flush()
        return this.#end({ state: 'failed', reason: decision.reason, error: errorText })
    }
  }

  async #reconnect(): Promise<void> {
    this.#timer = undefined
    if (this.#intentional) return
    try {
      await this.#connect()
    } catch (err) {
      this.#logger.error({ err }, 'creating the socket failed')
      this.#detachSocket()
      await this.#handleClose(err)
    }
  }

  #detachSocket(): void {
    this.#detach?.()
    this.#detach = undefined
    this.#sock = undefined
  }

  #update(update: ConnectionUpdate): void {
    this.#lastState = update.state
    this.emit('connection.update', { sessionId: this.sessionId, ...update })
  }

  #end(update: ConnectionUpdate): void {
    if (this.#phase === 'ended') return
    this.#phase = 'ended'
    for (const wake of [...this.#qrWaiters]) wake(false)
    this.#update(update)
    this.onEnded(this)
  }
}
