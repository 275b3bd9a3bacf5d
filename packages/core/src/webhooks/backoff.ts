/**
 * The retry schedule of failed webhook deliveries: exponential with **equal jitter**.
 *
 * After the n-th failed attempt the ceiling is `min(maxMs, baseMs · 2^(n−1))` and the delay is
 * drawn uniformly from `[ceiling / 2, ceiling)`. Equal jitter (rather than full jitter, which
 * draws from `[0, ceiling)`) still spreads the retries of many deliveries that failed together,
 * while never retrying a dead receiver almost at once and keeping the schedule's length
 * predictable (the 24-hour retry window holds a bounded number of attempts).
 * @module
 */

export interface RetryScheduleOptions {
  /** First ceiling (the spec's `SWITCHBOARD_WEBHOOK_RETRY_BASE_MS`). */
  baseMs: number
  /** Cap on one ceiling (`SWITCHBOARD_WEBHOOK_RETRY_MAX_MS`). */
  maxMs: number
  /** Uniform in [0, 1). @default Math.random */
  random?: () => number
}

/** The ceiling of the delay after `attempts` failed attempts (attempts ≥ 1). */
export function retryCeilingMs(attempts: number, baseMs: number, maxMs: number): number {
  // 2^52 · base overflows nothing and is far past any cap, so larger exponents add nothing.
  const exponent = Math.min(Math.max(attempts - 1, 0), 52)
  return Math.min(maxMs, baseMs * 2 ** exponent)
}

/** Milliseconds to wait after `attempts` failed attempts before the next one (an integer ≥ 1). */
export function retryDelayMs(attempts: number, options: RetryScheduleOptions): number {
  const ceiling = retryCeilingMs(attempts, options.baseMs, options.maxMs)
  const r = Math.min(Math.max((options.random ?? Math.random)(), 0), 1 - Number.EPSILON)
  return Math.max(1, Math.floor(ceiling / 2 + r * (ceiling / 2)))
}
