/**
 * What the HTTP layer needs of a gateway, beyond the operations it runs: authentication,
 * authorization, the general rate limit and the figures for /health. Core's `Gateway` provides it;
 * tests pass a small fake.
 * @module
 */
import type { AccessRule, Principal } from '@switchboard/core'

/** The general limit after taking one request: the values of the `X-RateLimit-*` headers. */
export interface RateLimitState {
  limit: number
  remaining: number
  /** Unix seconds at which the window resets. */
  resetAtSec: number
}

export interface GatewayStats {
  sessions: { total: number; byState: Record<string, number> }
  webhooks: { pending: number; deadLettered: number }
  /** `whatsapp` or `sandbox`. */
  network: string
  /** The store kind: `memory`, `sqlite`, `redis`, `postgres`. */
  store: string
}

export interface HttpGateway {
  /** Throws API_KEY_REQUIRED, API_KEY_INVALID, API_KEY_DEACTIVATED or TRIAL_EXPIRED. */
  authenticate(rawKey: string | undefined): Promise<Principal>
  /** Throws ADMIN_KEY_REQUIRED, SESSION_ACCESS_DENIED or SESSION_NOT_FOUND. */
  authorize(principal: Principal, access: AccessRule, sessionId?: string): Promise<void>
  /**
   * Counts one request against the general limit of the principal (its account key) or, with no
   * valid key, of the client address. Throws RATE_LIMITED with `{ limit, remaining, resetAtSec,
   * retryAfter }` in `details`.
   */
  takeGeneralLimit(subject: { principal?: Principal; address: string }): Promise<RateLimitState>
  stats(): Promise<GatewayStats>
  /** The session showing this QR or handed this pairing code (for network doors that link devices themselves). */
  sessionForLink?(link: { qr?: string | undefined; code?: string | undefined }): string | undefined
}
