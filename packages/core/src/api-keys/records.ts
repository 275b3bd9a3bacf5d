/**
 * What the api-keys room stores: managed keys (collection `api-keys`, by id) and session keys
 * (collection `session-keys`, by `<sessionId>:<id>` so that one prefix clear revokes a session's
 * keys). Times are epoch ms; views turn them into ISO strings.
 * @module
 */

/** The spec's `rateLimits`: requests per minute, messages per minute, session creations per hour. */
export interface RateLimits {
  general: number
  messages: number
  sessions: number
}

export interface KeyUsage {
  messagesSent: number
  sessionsCreated: number
}

/** A managed key as the service hands it out (never with its hash or raw secret). */
export interface ManagedApiKey {
  id: string
  name: string
  /** `standard`, `premium`, `trial` or any plan name (lower case). */
  type: string
  isAdmin: boolean
  isActive: boolean
  isTrial: boolean
  /** Trial keys only, else null. */
  trialExpiresAtMs: number | null
  /** Trial keys only (normalized digits), else null. */
  allowedNumbers: string[] | null
  rateLimits: RateLimits
  /** Sessions that may exist at once; null is unlimited. */
  maxSessions: number | null
  metadata: Record<string, unknown>
  usage: KeyUsage
  createdAtMs: number
  /** Last successful authentication with the key or one of its session keys; null until used. */
  lastUsedAtMs: number | null
}

/** The stored form of a managed key. */
export interface ApiKeyRecord extends ManagedApiKey {
  /** SHA-256 of the raw key, hex. */
  keyHash: string
}

/** The stored form of a session key. */
export interface SessionKeyRecord {
  id: string
  sessionId: string
  /** The key that created the session (`master` for the master key). */
  accountKeyId: string
  keyHash: string
  createdAtMs: number
}

/** The key id of the master admin key in principals and session-key records. */
export const MASTER_KEY_ID = 'master'

export const API_KEYS_COLLECTION = 'api-keys'
export const SESSION_KEYS_COLLECTION = 'session-keys'
