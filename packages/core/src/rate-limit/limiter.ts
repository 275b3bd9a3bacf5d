/**
 * The rate limiter port and its in-process implementation. The gateway only sees
 * {@link RateLimiter}, so a shared backend (Redis, for several gateway processes behind one load
 * balancer) can replace {@link createMemoryRateLimiter} without touching the callers.
 * @module
 */
import type { Clock } from '../kernel/clock.js'
import { peek, take, type WindowDecision, type WindowRule, type WindowState } from './fixed-window.js'

/** Counts hits per bucket key under a {@link WindowRule}. */
export interface RateLimiter {
  /** Takes `rule.cost` (default 1) units from the bucket; a refusal takes nothing. */
  take(bucketKey: string, rule: WindowRule): Promise<WindowDecision>
  /** What a take would answer now, without taking. */
  peek(bucketKey: string, rule: WindowRule): Promise<WindowDecision>
  /** Forgets a bucket (e.g. when its session is deleted). */
  reset(bucketKey: string): Promise<void>
}

export interface MemoryRateLimiterOptions {
  clock: Clock
  /**
   * Most buckets kept at once. Past it the least recently used bucket is dropped, so a flood of
   * client addresses cannot grow memory without bound (the dropped client starts a fresh window).
   * @default 100000
   */
  maxBuckets?: number
  /** How often, at most, ended windows are swept out (lazily, during a call). @default 60000 */
  sweepIntervalMs?: number
}

/** The in-process limiter; `size` is exposed for monitoring and tests. */
export interface MemoryRateLimiter extends RateLimiter {
  /** Buckets currently held. */
  readonly size: number
}

interface Bucket {
  state: WindowState
  expiresAtMs: number
}

/**
 * A {@link RateLimiter} over a Map in least-recently-used order. No timers: ended windows are
 * swept during calls, at most once per `sweepIntervalMs`, and the cap evicts the oldest bucket.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const { clock } = options
  const maxBuckets = options.maxBuckets ?? 100_000
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000
  if (!Number.isInteger(maxBuckets) || maxBuckets < 1) {
    throw new RangeError(`maxBuckets must be a positive integer, got ${maxBuckets}`)
  }
  const buckets = new Map<string, Bucket>()
  let nextSweepAtMs = clock.now() + sweepIntervalMs

  const sweep = (nowMs: number): void => {
    if (nowMs < nextSweepAtMs) return
    nextSweepAtMs = nowMs + sweepIntervalMs
    for (const [key, bucket] of buckets) if (nowMs >= bucket.expiresAtMs) buckets.delete(key)
  }

  return {
    get size() {
      return buckets.size
    },
    async take(bucketKey, rule) {
      const nowMs = clock.now()
      sweep(nowMs)
      const { state, ...decision } = take(buckets.get(bucketKey)?.state, nowMs, rule)
      // Delete then set moves the key to the end: Map order is the recency order.
      buckets.delete(bucketKey)
      buckets.set(bucketKey, { state, expiresAtMs: state.startMs + rule.windowMs })
      while (buckets.size > maxBuckets) {
        const oldest = buckets.keys().next()
        if (oldest.done === true) break
        buckets.delete(oldest.value)
      }
      return decision
    },
    async peek(bucketKey, rule) {
      const nowMs = clock.now()
      sweep(nowMs)
      return peek(buckets.get(bucketKey)?.state, nowMs, rule)
    },
    async reset(bucketKey) {
      buckets.delete(bucketKey)
    },
  }
}
