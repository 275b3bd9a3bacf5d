/**
 * The gateway's three limits as buckets, and the two ways a decision leaves the room: the
 * `X-RateLimit-*` headers and the 429 `RATE_LIMITED` error.
 *
 * - general: requests per minute, counted per API key (each session key has its own bucket, under
 *   its account key's limit); requests without a valid key are counted per client address;
 * - messages: messages per minute per session (every send, each broadcast message, each scheduled send);
 * - sessions: session creations per hour per account key.
 * @module
 */
import { GatewayError } from '../errors/index.js'
import type { Principal } from '../operations/types.js'
import type { WindowDecision, WindowRule } from './fixed-window.js'
import type { RateLimiter } from './limiter.js'

export const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS

/** A bucket key and the rule it is counted under. */
export interface RateLimitBucket {
  key: string
  rule: WindowRule
}

/** The general limit of an authenticated request: per key, `principal.limits.general` per minute. */
export function generalBucket(principal: Pick<Principal, 'keyId' | 'limits'>): RateLimitBucket {
  return { key: `general:key:${principal.keyId}`, rule: { limit: principal.limits.general, windowMs: MINUTE_MS } }
}

/** The general limit of a request without a valid key: per client address, `limit` per minute. */
export function anonymousBucket(clientAddress: string, limit: number): RateLimitBucket {
  return { key: `general:addr:${clientAddress}`, rule: { limit, windowMs: MINUTE_MS } }
}

/** The messages limit of a session: `limits.messages` per minute; `cost` for several messages at once. */
export function messagesBucket(sessionId: string, limits: { messages: number }, cost = 1): RateLimitBucket {
  return { key: `messages:${sessionId}`, rule: { limit: limits.messages, windowMs: MINUTE_MS, cost } }
}

/** The session-creation limit of an account key: `limits.sessions` per hour. */
export function sessionsBucket(accountKeyId: string, limits: { sessions: number }): RateLimitBucket {
  return { key: `sessions:${accountKeyId}`, rule: { limit: limits.sessions, windowMs: HOUR_MS } }
}

/** The response headers of a decision. */
export interface RateLimitHeaders {
  'X-RateLimit-Limit': string
  'X-RateLimit-Remaining': string
  /** Unix seconds, rounded up so that a client waiting until then finds the window reset. */
  'X-RateLimit-Reset': string
}

/** `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds) for a decision. */
export function rateLimitHeaders(decision: WindowDecision): RateLimitHeaders {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAtMs / 1000)),
  }
}

/** Throws `RATE_LIMITED` with `retryAfter` when the decision is a refusal. */
export function assertAllowed(decision: WindowDecision): void {
  if (!decision.allowed) throw new GatewayError('RATE_LIMITED', { retryAfter: decision.retryAfterSec })
}

/**
 * Takes from a bucket and throws `RATE_LIMITED` when refused. For the general limit, where the
 * headers go on the refusal too, call `limiter.take`, set {@link rateLimitHeaders}, then
 * {@link assertAllowed}.
 * @example
 * await enforce(limiter, messagesBucket(sessionId, principal.limits))
 */
export async function enforce(limiter: RateLimiter, bucket: RateLimitBucket): Promise<WindowDecision> {
  const decision = await limiter.take(bucket.key, bucket.rule)
  assertAllowed(decision)
  return decision
}
