/**
 * The composition root: builds every room from the options, wires them together through
 * constructor arguments and events, and exposes the typed facade an embedding app (or the REST
 * server) uses. No business logic lives here.
 * @module
 */
import { ApiKeyService } from './api-keys/index.js'
import { GatewayError } from './errors/index.js'
import { systemClock, type Clock } from './kernel/clock.js'
import { TypedEmitter } from './kernel/emitter.js'
import { randomId, type NewId } from './kernel/ids.js'
import { silentLogger, type Logger } from './kernel/logger.js'
import { Directory } from './messaging/directory.js'
import { MessagingService } from './messaging/messaging-service.js'
import type { NetworkDriver } from './network/driver.js'
import type { AccessRule, Principal } from './operations/types.js'
import { DEFAULTS, withDefaults, type GatewayOptions } from './options.js'
import {
  anonymousBucket,
  createMemoryRateLimiter,
  enforce,
  generalBucket,
  messagesBucket,
  sessionsBucket,
  type RateLimiter,
} from './rate-limit/index.js'
import type { GatewayEvent, GatewayEventName, GatewayEvents } from './schemas/events.js'
import { SessionService } from './sessions/session-service.js'
import { SESSION_STATES, type SessionState } from './sessions/session-record.js'
import { createAuthStore } from './store/index.js'
import type { Store } from './store/store.js'
import { createWebhookSecret, WebhookService } from './webhooks/index.js'
import { resolveMasterKey } from './api-keys/master-key.js'

export interface GatewayStats {
  sessions: { total: number; byState: Record<SessionState, number> }
  webhooks: { pending: number; deadLettered: number; inFlight: number }
  network: string
  store: string
}

export interface GeneralLimitState {
  limit: number
  remaining: number
  /** Unix seconds when the window resets. */
  resetAtSec: number
}

export class Gateway {
  readonly clock: Clock
  readonly logger: Logger
  readonly store: Store
  readonly network: NetworkDriver
  readonly keys: ApiKeyService
  readonly limiter: RateLimiter
  readonly sessions: SessionService
  readonly messaging: MessagingService
  readonly directory: Directory
  readonly webhooks: WebhookService
  /** The master admin key, when this start generated it (print it once; it is never shown again). */
  readonly generatedAdminKey: string | undefined
  readonly #events: TypedEmitter<GatewayEvents & { '*': GatewayEvent }>
  readonly #limits: { general: number; messages: number; sessions: number }
  readonly #retentionMs: number
  readonly #sweepEveryMs: number
  #sweepTimer: ReturnType<Clock["setTimer"]> | undefined
  #closed = false

  /** Use {@link createGateway}. */
  constructor(parts: {
    options: GatewayOptions
    clock: Clock
    logger: Logger
    newId: NewId
    keys: ApiKeyService
    generatedAdminKey: string | undefined
  }) {
    const { options, clock, logger, newId } = parts
    this.clock = clock
    this.logger = logger
    this.store = options.store
    this.network = options.network
    this.keys = parts.keys
    this.generatedAdminKey = parts.generatedAdminKey
    this.#limits = withDefaults(DEFAULTS.limits, options.limits)
    this.#events = new TypedEmitter((err, event) => logger.error({ err, event }, 'event listener failed'))
    this.limiter = createMemoryRateLimiter({ clock })
    const emit = (event: GatewayEvent): void => this.#emit(event)

    this.directory = new Directory(options.store.collection('chats'), options.store.collection('contacts'))
    this.webhooks = new WebhookService({
      store: options.store,
      clock,
      fetch: options.fetch ?? globalThis.fetch,
      logger: logger.child({ room: 'webhooks' }),
      newId,
      ...(options.random ? { random: options.random } : {}),
      ...withDefaults(DEFAULTS.webhooks, options.webhooks),
      resolveTarget: async (sessionId) => {
        const s = this.sessions.find(sessionId)
        return s?.webhookUrl ? { url: s.webhookUrl, secret: s.webhookSecret } : undefined
      },
    })
    const messageSettings = withDefaults(DEFAULTS.messages, options.messages)
    const sessionSettings = withDefaults(DEFAULTS.sessions, options.sessions)
    this.sessions = new SessionService({
      sessions: options.store.collection('sessions'),
      driver: options.network,
      authStoreFor: (id) => createAuthStore(options.store, id),
      keys: this.keys,
      admitCreation: async (principal) => {
        await enforce(this.limiter, sessionsBucket(principal.accountKeyId, principal.limits))
      },
      purge: async (id) => {
        await this.messaging.purge(id)
        await this.webhooks.deleteForSession(id)
      },
      emit,
      newWebhookSecret: createWebhookSecret,
      clock,
      logger: logger.child({ room: 'sessions' }),
      newId,
      ...sessionSettings,
    })
    this.messaging = new MessagingService({
      messages: options.store.collection('messages'),
      directory: this.directory,
      driver: options.network,
      sessions: this.sessions,
      policy: {
        takeMessage: async (sessionId, principal) => {
          await enforce(this.limiter, messagesBucket(sessionId, (principal ?? this.masterPrincipal()).limits))
        },
        assertRecipient: (principal, to) => {
          if (principal) this.keys.assertTrialRecipient(principal, to)
        },
        recordMessageSent: (principal) => this.keys.recordMessageSent(principal?.accountKeyId ?? 'master'),
      },
      emit,
      clock,
      logger: logger.child({ room: 'messaging' }),
      maxTextLength: messageSettings.maxTextLength,
    })
    this.#retentionMs = messageSettings.retentionMs
    this.#sweepEveryMs = messageSettings.sweepEveryMs
  }

  /** Loads keys and sessions, restores linked sessions, resumes pending webhooks. */
  async start(): Promise<void> {
    await this.keys.load()
    await this.webhooks.start()
    await this.sessions.start()
    this.#armSweep()
  }

  /** Stops timers, closes connections (without logging out), flushes state. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#sweepTimer) this.clock.clearTimer(this.#sweepTimer)
    this.messaging.close()
    await this.sessions.close()
    await this.network.shutdown()
    await this.webhooks.close()
    await this.keys.close()
    this.#events.removeAll()
  }

  /** Subscribes to one event; returns the unsubscribe function. */
  on<E extends GatewayEventName>(event: E, listener: (payload: GatewayEvents[E]) => void): () => void {
    return this.#events.on(event, listener)
  }

  /** Subscribes to every event. */
  onEvent(listener: (event: GatewayEvent) => void): () => void {
    return this.#events.on('*', listener)
  }

  /** Resolves a raw key (header, bearer or query) to its principal. */
  async authenticate(rawKey: string | undefined): Promise<Principal> {
    return this.keys.authenticate(rawKey)
  }

  /** Throws unless `principal` may call an operation with `access` on `sessionId`. */
  async authorize(principal: Principal, access: AccessRule, sessionId?: string): Promise<void> {
    if (access === 'public') return
    if (sessionId === undefined || access === 'admin') {
      this.keys.assertAccess(principal, access)
      return
    }
    const session = this.sessions.find(sessionId)
    // A session key learns nothing about other sessions, existing or not.
    if (principal.kind === 'session' && principal.sessionId !== sessionId) throw new GatewayError('SESSION_ACCESS_DENIED')
    if (!session) {
      this.keys.assertAccess(principal, access)
      throw new GatewayError('SESSION_NOT_FOUND')
    }
    this.keys.assertAccess(principal, access, { id: session.id, accountKeyId: session.accountKeyId })
  }

  /**
   * Counts one request against the general limit and answers the values of the `X-RateLimit-*`
   * headers; over the limit, throws RATE_LIMITED carrying the same values in its details.
   */
  async takeGeneralLimit(subject: { principal?: Principal | undefined; address: string }): Promise<GeneralLimitState> {
    const bucket = subject.principal
      ? generalBucket(subject.principal)
      : anonymousBucket(subject.address, this.#limits.general)
    const decision = await this.limiter.take(bucket.key, bucket.rule)
    const state = { limit: decision.limit, remaining: decision.remaining, resetAtSec: Math.ceil(decision.resetAtMs / 1000) }
    if (!decision.allowed) throw new GatewayError('RATE_LIMITED', { retryAfter: decision.retryAfterSec, ...state })
    return state
  }

  /**
   * Deletes a managed key for good. The sessions created with it lose access: their session keys
   * stop working (the key service refuses them) and they are stopped, keeping their data.
   */
  async deleteApiKey(keyId: string): Promise<void> {
    await this.keys.delete(keyId)
    for (const session of this.sessions.all()) {
      if (session.accountKeyId !== keyId || session.desired === 'stopped') continue
      await this.sessions.stop(session.id).catch((err: unknown) =>
        this.logger.warn({ err, sessionId: session.id }, 'could not stop a session of a deleted key'),
      )
    }
  }

  /** The session showing this QR or handed this pairing code (see `SessionService.sessionForLink`). */
  sessionForLink(link: { qr?: string | undefined; code?: string | undefined }): string | undefined {
    return this.sessions.sessionForLink(link)
  }

  /** The principal of the master admin key (embedders calling rooms directly act as it). */
  masterPrincipal(): Principal {
    return this.keys.masterPrincipal()
  }

  async stats(): Promise<GatewayStats> {
    const byState = Object.fromEntries(SESSION_STATES.map((s) => [s, 0])) as Record<SessionState, number>
    const all = this.sessions.all()
    for (const s of all) byState[s.state]++
    return {
      sessions: { total: all.length, byState },
      webhooks: this.webhooks.stats(),
      network: this.network.name,
      store: this.store.kind,
    }
  }

  #emit(event: GatewayEvent): void {
    this.#events.emit(event.event as GatewayEventName, event as never)
    this.#events.emit('*', event)
    if (this.sessions.find(event.sessionId)?.webhookUrl) {
      this.webhooks.enqueue(event).catch((err: unknown) => this.logger.error({ err, event: event.event }, 'could not queue a webhook'))
    }
  }

  #armSweep(): void {
    this.#sweepTimer = this.clock.setTimer(() => {
      this.messaging
        .sweep(this.#retentionMs)
        .then((n) => n > 0 && this.logger.info({ removed: n }, 'old message records removed'))
        .catch((err: unknown) => this.logger.error({ err }, 'message sweep failed'))
        .finally(() => !this.#closed && this.#armSweep())
    }, this.#sweepEveryMs)
  }
}

/**
 * Builds a gateway. Call `await gateway.start()` to load state and restore linked sessions.
 *
 * @example
 * const store = await openStore('sqlite://./data/switchboard.sqlite')
 * const sandbox = createSandbox({ store, clock: systemClock })
 * const gateway = await createGateway({ store, network: sandbox.driver() })
 * await gateway.start()
 */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? silentLogger
  const newId = options.newId ?? randomId
  const master = await resolveMasterKey(options.store, options.adminKey)
  const keys = new ApiKeyService({
    store: options.store,
    clock,
    newId,
    logger: logger.child({ room: 'api-keys' }),
    masterKeyHash: master.hash,
    defaults: withDefaults(DEFAULTS.limits, options.limits),
  })
  return new Gateway({ options, clock, logger, newId, keys, generatedAdminKey: master.generated })
}
