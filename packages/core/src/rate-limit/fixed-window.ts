/**
 * Fixed-window counting as pure functions of `(state, now)`: no timers and no clock, so a test passes
 * a different `nowMs` instead of waiting. A window opens at the first hit of a bucket and closes
 * `windowMs` later; the next hit after that opens a fresh one.
 * @module
 */

/** The stored state of one bucket. */
export interface WindowState {
  /** Epoch ms of the first hit of the current window. */
  startMs: number
  /** Units taken in the current window (refused takes are not counted). */
  count: number
}

/** What a bucket allows. */
export interface WindowRule {
  /** Units allowed per window (0 refuses everything). */
  limit: number
  windowMs: number
  /** Units one take costs. @default 1 */
  cost?: number
}

/** The answer of a take or a peek, ready for the `X-RateLimit-*` headers and `retryAfter`. */
export interface WindowDecision {
  allowed: boolean
  limit: number
  /** Units left in the current window after this take. */
  remaining: number
  /** Epoch ms at which the current window ends. */
  resetAtMs: number
  /** Whole seconds until the window ends, at least 1 (the `retryAfter` of a refusal). */
  retryAfterSec: number
}

export interface TakeResult extends WindowDecision {
  /** The state to keep (unchanged when refused). */
  state: WindowState
}

const isCount = (n: number): boolean => Number.isInteger(n) && n >= 0

function checkRule(rule: WindowRule): number {
  const cost = rule.cost ?? 1
  if (!isCount(rule.limit)) throw new RangeError(`rate limit must be a non-negative integer, got ${rule.limit}`)
  if (!(rule.windowMs > 0)) throw new RangeError(`rate limit window must be positive, got ${rule.windowMs}`)
  if (!isCount(cost)) throw new RangeError(`rate limit cost must be a non-negative integer, got ${cost}`)
  return cost
}

/** The window in force at `nowMs`: the given one, or a fresh one when there is none or it has ended. */
function current(state: WindowState | undefined, nowMs: number, windowMs: number): WindowState {
  if (state === undefined || nowMs >= state.startMs + windowMs) return { startMs: nowMs, count: 0 }
  return state
}

function decide(state: WindowState, nowMs: number, limit: number, windowMs: number, allowed: boolean): WindowDecision {
  const resetAtMs = state.startMs + windowMs
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - state.count),
    resetAtMs,
    retryAfterSec: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
  }
}

/**
 * Takes `cost` units from a bucket at `nowMs`. A refusal leaves the count as it was, so a client
 * that keeps retrying does not push its own reset further away.
 * @example
 * const first = take(undefined, now, { limit: 100, windowMs: 60_000 })
 * const second = take(first.state, now + 10, { limit: 100, windowMs: 60_000 }) // remaining 98
 */
export function take(state: WindowState | undefined, nowMs: number, rule: WindowRule): TakeResult {
  const cost = checkRule(rule)
  const window = current(state, nowMs, rule.windowMs)
  const allowed = window.count + cost <= rule.limit
  const next = allowed ? { startMs: window.startMs, count: window.count + cost } : window
  return { state: next, ...decide(next, nowMs, rule.limit, rule.windowMs, allowed) }
}

/**
 * What a take would answer, without taking: `allowed` says whether `cost` units are still
 * available, `remaining` is what is left now.
 */
export function peek(state: WindowState | undefined, nowMs: number, rule: WindowRule): WindowDecision {
  const cost = checkRule(rule)
  const window = current(state, nowMs, rule.windowMs)
  return decide(window, nowMs, rule.limit, rule.windowMs, window.count + cost <= rule.limit)
}

/** True when the window of `state` has ended at `nowMs` (the bucket can be forgotten). */
export function isExpired(state: WindowState, nowMs: number, windowMs: number): boolean {
  return nowMs >= state.startMs + windowMs
}
