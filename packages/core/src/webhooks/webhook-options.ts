/**
 * Options, defaults and stats of the {@link WebhookService}.
 * @module
 */
import type { Clock } from '../kernel/clock.js'
import type { NewId } from '../kernel/ids.js'
import type { Logger } from '../kernel/logger.js'
import type { Store } from '../store/store.js'
import type { WebhookFetch, WebhookTarget } from './post.js'

/** Defaults of {@link WebhookServiceOptions}. */
export const WEBHOOK_DEFAULTS = {
  /** First retry ceiling: 1 s (`SWITCHBOARD_WEBHOOK_RETRY_BASE_MS`). */
  retryBaseMs: 1000,
  /** Cap on one retry delay: 1 h (`SWITCHBOARD_WEBHOOK_RETRY_MAX_MS`). */
  retryMaxMs: 3_600_000,
  /** Retry period from the event's creation: 24 h. */
  retryForMs: 86_400_000,
  /** One attempt's time limit: 5 s (spec: a receiver answers within 5 seconds). */
  timeoutMs: 5000,
  /** Attempts in flight at once, across sessions (one per session at most). */
  concurrency: 16,
} as const

export interface WebhookServiceOptions {
  store: Store
  /** The session's webhook now, or undefined when it has none (its pending deliveries are then dropped). */
  resolveTarget: (sessionId: string) => Promise<WebhookTarget | undefined>
  /** @default systemClock */
  clock?: Clock | undefined
  /** @default the global fetch, looked up at each attempt */
  fetch?: WebhookFetch | undefined
  /** @default silentLogger */
  logger?: Logger | undefined
  /** Makes the `webhook-id` of each event. @default randomId */
  newId?: NewId | undefined
  /** Uniform in [0, 1), for the retry jitter. @default Math.random */
  random?: (() => number) | undefined
  /** @default 1000 */
  retryBaseMs?: number | undefined
  /** @default 3_600_000 */
  retryMaxMs?: number | undefined
  /** Keep retrying at least this long after the event, then dead-letter. @default 86_400_000 */
  retryForMs?: number | undefined
  /** @default 5000 */
  timeoutMs?: number | undefined
  /** @default 16 */
  concurrency?: number | undefined
}

/** For health checks. */
export interface WebhookStats {
  /** Deliveries stored and not yet delivered. */
  pending: number
  /** Deliveries given up (counted from the store at `start()`). */
  deadLettered: number
  /** Attempts under way. */
  inFlight: number
}

/** Throws a RangeError unless `value` > 0 (option checks; internal). */
export function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`webhooks: ${name} must be a positive number, got ${value}`)
  return value
}
