/**
 * The durable webhook outbox. Every gateway event for a session with a webhook is written to the
 * store before the first attempt, posted with a signature, retried with backoff for at least
 * `retryForMs`, then dead-lettered. Nothing is lost to a restart or a receiver outage; delivery is
 * at least once (a crash between a receiver's 2xx and the record's removal repeats that event, with
 * the same `webhook-id` for receivers to deduplicate on).
 *
 * Ordering: FIFO per session. A session's deliveries are attempted one at a time in creation order,
 * and while its oldest one waits for a retry the later ones wait behind it, so a receiver sees
 * `message_status` updates and connection events in the order they happened. Sessions are
 * independent queues: a dead receiver delays only its own session (a single slow attempt holds one
 * of `concurrency` slots for at most `timeoutMs`). The cost is head-of-line blocking inside a
 * session whose receiver keeps refusing one event, bounded by the retry period.
 *
 * Scheduling: one clock timer, armed for the earliest due head (capped at MAX_TIMER_DELAY_MS and
 * re-armed on every change); bodies stay in the store, the heap holds only a small index.
 * @module
 */
import type { Clock, TimerHandle } from '../kernel/clock.js'
import { MAX_TIMER_DELAY_MS, systemClock } from '../kernel/clock.js'
import type { NewId } from '../kernel/ids.js'
import { randomId } from '../kernel/ids.js'
import type { Logger } from '../kernel/logger.js'
import { silentLogger } from '../kernel/logger.js'
import type { GatewayEvent } from '../schemas/events.js'
import type { Collection } from '../store/store.js'
import { retryDelayMs } from './backoff.js'
import type { WebhookDeadLetter, WebhookDelivery } from './delivery.js'
import { DEAD_LETTERS_COLLECTION, DELIVERIES_COLLECTION, deliveryKey } from './delivery.js'
import type { PendingRef } from './outbox-index.js'
import { OutboxIndex } from './outbox-index.js'
import type { WebhookFetch, WebhookTarget } from './post.js'
import { postWebhook } from './post.js'
import type { WebhookServiceOptions, WebhookStats } from './webhook-options.js'
import { positive, WEBHOOK_DEFAULTS } from './webhook-options.js'

/**
 * Delivers gateway events to session webhooks. The composition root subscribes {@link enqueue} to
 * every gateway event and calls {@link deleteForSession} when a session is deleted.
 * @example
 * const webhooks = new WebhookService({ store, clock, logger, resolveTarget: (id) => sessions.webhookOf(id) })
 * await webhooks.start()
 * gateway.onEvent((event) => webhooks.enqueue(event))
 */
export class WebhookService {
  readonly #deliveries: Collection<WebhookDelivery>
  readonly #deadLetters: Collection<WebhookDeadLetter>
  readonly #resolveTarget: (sessionId: string) => Promise<WebhookTarget | undefined>
  readonly #clock: Clock
  readonly #fetch: WebhookFetch
  readonly #logger: Logger
  readonly #newId: NewId
  readonly #random: () => number
  readonly #retryBaseMs: number
  readonly #retryMaxMs: number
  readonly #retryForMs: number
  readonly #timeoutMs: number
  readonly #concurrency: number

  readonly #index = new OutboxIndex()
  readonly #inFlight = new Map<string, { run: Promise<void>; controller: AbortController }>()
  /** Sessions with an attempt under way (at most one each). */
  readonly #busy = new Set<string>()
  #seq = 0
  #deadLettered = 0
  #timer: TimerHandle | undefined
  #timerDueAt = Infinity
  #started: Promise<void> | undefined
  #closed = false

  constructor(options: WebhookServiceOptions) {
    this.#deliveries = options.store.collection<WebhookDelivery>(DELIVERIES_COLLECTION)
    this.#deadLetters = options.store.collection<WebhookDeadLetter>(DEAD_LETTERS_COLLECTION)
    this.#resolveTarget = options.resolveTarget
    this.#clock = options.clock ?? systemClock
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
    this.#logger = options.logger ?? silentLogger
    this.#newId = options.newId ?? randomId
    this.#random = options.random ?? Math.random
    this.#retryBaseMs = positive('retryBaseMs', options.retryBaseMs ?? WEBHOOK_DEFAULTS.retryBaseMs)
    this.#retryMaxMs = positive('retryMaxMs', options.retryMaxMs ?? WEBHOOK_DEFAULTS.retryMaxMs)
    this.#retryForMs = positive('retryForMs', options.retryForMs ?? WEBHOOK_DEFAULTS.retryForMs)
    this.#timeoutMs = positive('timeoutMs', options.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs)
    this.#concurrency = positive('concurrency', options.concurrency ?? WEBHOOK_DEFAULTS.concurrency)
  }

  /** Reloads the deliveries a previous process left pending and delivers those due. Idempotent. */
  start(): Promise<void> {
    this.#started ??= this.#load()
    return this.#started
  }

  async #load(): Promise<void> {
    let loaded = 0
    for await (const [key, record] of this.#deliveries.entries()) {
      this.#seq = Math.max(this.#seq, record.seq)
      if (this.#index.has(key)) continue
      this.#index.add({ ...refFields(record), key, ready: true, removed: false, internalErrors: 0 })
      loaded++
    }
    let dead = 0
    for await (const _ of this.#deadLetters.entries()) dead++
    this.#deadLettered = dead
    if (loaded > 0) this.#logger.info({ pending: loaded, deadLettered: dead }, 'webhook deliveries reloaded')
    this.#pump()
  }

  /**
   * Stores the event as a delivery to its session's webhook and resolves once it is durable; the
   * attempts follow in the background. Resolves to undefined (nothing stored) when the session has
   * no webhook. After {@link close} the delivery is stored for the next start but not attempted.
   */
  async enqueue(event: GatewayEvent): Promise<WebhookDelivery | undefined> {
    const { sessionId } = event
    const now = this.#clock.now()
    const id = this.#newId()
    // The placeholder is queued before any await, so the session's FIFO follows the call order.
    const ref: PendingRef = {
      key: deliveryKey(sessionId, id),
      sessionId,
      createdAt: now,
      seq: ++this.#seq,
      nextAttemptAt: now,
      ready: false,
      removed: false,
      internalErrors: 0,
    }
    this.#index.add(ref)
    let stored: WebhookDelivery | undefined
    try {
      if (!(await this.#resolveTarget(sessionId))) {
        this.#logger.debug({ sessionId, event: event.event }, 'no webhook for session; event not delivered')
        return undefined
      }
      if (ref.removed) return undefined
      const record: WebhookDelivery = {
        id,
        sessionId,
        event: event.event,
        body: JSON.stringify(event),
        createdAt: now,
        seq: ref.seq,
        attempts: 0,
        nextAttemptAt: now,
        lastError: null,
      }
      await this.#deliveries.set(ref.key, record)
      if (ref.removed) {
        await this.#deliveries.delete(ref.key)
        return undefined
      }
      ref.ready = true
      stored = record
      return record
    } finally {
      if (!stored) this.#index.remove(ref)
      this.#pump()
    }
  }

  /** Drops a deleted session's pending deliveries and dead letters (aborting an attempt under way). Returns how many were pending. */
  async deleteForSession(sessionId: string): Promise<number> {
    for (const ref of this.#index.removeSession(sessionId)) this.#inFlight.get(ref.key)?.controller.abort()
    const pending = await this.#keysOf(this.#deliveries, sessionId)
    const dead = await this.#keysOf(this.#deadLetters, sessionId)
    if (pending.length > 0) await this.#deliveries.batch({ delete: pending })
    if (dead.length > 0) await this.#deadLetters.batch({ delete: dead })
    this.#deadLettered = Math.max(0, this.#deadLettered - dead.length)
    if (pending.length + dead.length > 0) {
      this.#logger.debug({ sessionId, pending: pending.length, deadLettered: dead.length }, 'webhook deliveries dropped')
    }
    this.#pump()
    return pending.length
  }

  async #keysOf<T extends WebhookDelivery>(collection: Collection<T>, sessionId: string): Promise<string[]> {
    const keys: string[] = []
    // The prefix also matches sessions whose id extends this one past a ':'; the value tells them apart.
    for await (const [key, record] of collection.entries(sessionId)) if (record.sessionId === sessionId) keys.push(key)
    return keys
  }

  /** Deliveries given up after the retry period, oldest first (all sessions, or one). */
  async listDeadLetters(sessionId?: string): Promise<WebhookDeadLetter[]> {
    const list: WebhookDeadLetter[] = []
    for await (const [, record] of this.#deadLetters.entries(sessionId)) {
      if (sessionId === undefined || record.sessionId === sessionId) list.push(record)
    }
    return list.sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq)
  }

  stats(): WebhookStats {
    return { pending: this.#index.pendingCount(), deadLettered: this.#deadLettered, inFlight: this.#inFlight.size }
  }

  /**
   * Stops attempting, clears the timer and waits for the attempts under way, each bounded by
   * `timeoutMs`. Pending deliveries stay in the store for the next start.
   */
  async close(): Promise<void> {
    this.#closed = true
    this.#disarm()
    await Promise.allSettled([...this.#inFlight.values()].map((f) => f.run))
  }

  /** Starts every due session head (within the concurrency), then arms the timer for the next one. */
  #pump(): void {
    if (this.#closed) return
    const now = this.#clock.now()
    const due: PendingRef[] = []
    let nextDueAt = Infinity
    for (const head of this.#index.heads()) {
      if (!head.ready || this.#busy.has(head.sessionId)) continue
      if (head.nextAttemptAt <= now) due.push(head)
      else nextDueAt = Math.min(nextDueAt, head.nextAttemptAt)
    }
    due.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.seq - b.seq)
    // Heads left over for lack of a slot start when a running attempt ends (it pumps again).
    for (const ref of due.slice(0, Math.max(0, this.#concurrency - this.#inFlight.size))) this.#launch(ref)
    this.#arm(nextDueAt)
  }

  #arm(dueAt: number): void {
    if (dueAt === this.#timerDueAt) return
    this.#disarm()
    if (dueAt === Infinity) return
    const delay = Math.min(Math.max(0, dueAt - this.#clock.now()), MAX_TIMER_DELAY_MS)
    this.#timerDueAt = dueAt
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = undefined
      this.#timerDueAt = Infinity
      this.#pump()
    }, delay)
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer)
    this.#timer = undefined
    this.#timerDueAt = Infinity
  }

  #launch(ref: PendingRef): void {
    const controller = new AbortController()
    this.#busy.add(ref.sessionId)
    const run = this.#attempt(ref, controller.signal)
      .then(() => {
        ref.internalErrors = 0
      })
      .catch((err: unknown) => {
        // A store or resolver failure: the delivery stays pending; back off so it is not retried in a loop.
        ref.internalErrors++
        ref.nextAttemptAt = this.#clock.now() + this.#delayAfter(ref.internalErrors)
        this.#logger.error({ err, sessionId: ref.sessionId, key: ref.key }, 'webhook delivery bookkeeping failed')
      })
      .finally(() => {
        this.#busy.delete(ref.sessionId)
        this.#inFlight.delete(ref.key)
        this.#pump()
      })
    this.#inFlight.set(ref.key, { run, controller })
  }

  #delayAfter(attempts: number): number {
    return retryDelayMs(attempts, { baseMs: this.#retryBaseMs, maxMs: this.#retryMaxMs, random: this.#random })
  }

  async #attempt(ref: PendingRef, signal: AbortSignal): Promise<void> {
    const record = await this.#deliveries.get(ref.key)
    if (!record || ref.removed) {
      this.#index.remove(ref)
      return
    }
    const log = { sessionId: record.sessionId, deliveryId: record.id, event: record.event }
    const target = await this.#resolveTarget(record.sessionId)
    if (ref.removed) return
    if (!target) {
      await this.#deliveries.delete(ref.key)
      this.#index.remove(ref)
      this.#logger.debug(log, 'no webhook for session any more; delivery dropped')
      return
    }

    const outcome = await postWebhook({
      fetch: this.#fetch,
      clock: this.#clock,
      timeoutMs: this.#timeoutMs,
      target,
      id: record.id,
      body: record.body,
      signal,
    })
    const attempts = record.attempts + 1
    const now = this.#clock.now()
    if (ref.removed || outcome.ok) {
      await this.#deliveries.delete(ref.key)
      this.#index.remove(ref)
      if (outcome.ok) this.#logger.debug({ ...log, attempts, status: outcome.status }, 'webhook delivered')
      return
    }

    if (now - record.createdAt >= this.#retryForMs) {
      // Dead letter first: a crash in between leaves a copy in both, and the retry after restart
      // dead-letters it again under the same key.
      await this.#deadLetters.set(ref.key, { ...record, attempts, lastError: outcome.error, deadLetteredAt: now })
      await this.#deliveries.delete(ref.key)
      this.#index.remove(ref)
      if (ref.removed) {
        await this.#deadLetters.delete(ref.key)
        return
      }
      this.#deadLettered++
      this.#logger.warn({ ...log, attempts, error: outcome.error }, 'webhook delivery given up after the retry period')
      return
    }

    const nextAttemptAt = now + this.#delayAfter(attempts)
    await this.#deliveries.set(ref.key, { ...record, attempts, nextAttemptAt, lastError: outcome.error })
    if (ref.removed) {
      await this.#deliveries.delete(ref.key)
      return
    }
    ref.nextAttemptAt = nextAttemptAt
    this.#logger.info({ ...log, attempts, error: outcome.error, retryInMs: nextAttemptAt - now }, 'webhook delivery failed; will retry')
  }
}

function refFields(record: WebhookDelivery): Pick<PendingRef, 'sessionId' | 'createdAt' | 'seq' | 'nextAttemptAt'> {
  return { sessionId: record.sessionId, createdAt: record.createdAt, seq: record.seq, nextAttemptAt: record.nextAttemptAt }
}
