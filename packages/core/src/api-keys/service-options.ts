/**
 * Options, events and results of {@link ApiKeyService}.
 * @module
 */
import type { Clock } from '../kernel/clock.js'
import type { NewId } from '../kernel/ids.js'
import type { Logger } from '../kernel/logger.js'
import type { Store } from '../store/store.js'
import { digestKey, isValidMasterKey } from './hashing.js'
import type { ManagedApiKey, RateLimits } from './records.js'

interface BaseOptions {
  store: Store
  clock: Clock
  newId: NewId
  logger: Logger
  /** Limits of the master key and its sessions (the server's configured defaults). */
  defaults: RateLimits
  /** Usage and `lastUsedAt` reach the store at most this often. @default 10000 */
  usageFlushIntervalMs?: number
}

/**
 * The master admin key, either raw (`masterKey`: `wamk_` and at least 32 characters) or as its
 * SHA-256 hex (`masterKeyHash`, see `resolveMasterKey`). Only the digest is kept.
 */
export type ApiKeyServiceOptions = BaseOptions & ({ masterKey: string } | { masterKeyHash: string })

export interface ApiKeyEvents {
  /** A managed key was deleted; the sessions created with it must lose access. */
  'apiKey.deleted': { keyId: string; sessionIds: string[] }
}

/** A new key: the record and the raw secret, which is never available again. */
export interface CreatedApiKey {
  apiKey: ManagedApiKey
  key: string
}

export interface DeletedApiKey {
  keyId: string
  /** Sessions whose session keys were issued under the deleted key. */
  sessionIds: string[]
}

/** The digest the master key is compared against; throws a TypeError for a malformed option. */
export function masterDigestOf(options: ApiKeyServiceOptions): Buffer {
  if ('masterKeyHash' in options) {
    if (!/^[0-9a-f]{64}$/.test(options.masterKeyHash)) {
      throw new TypeError('masterKeyHash must be a SHA-256 digest in lower-case hex')
    }
    return Buffer.from(options.masterKeyHash, 'hex')
  }
  if (!isValidMasterKey(options.masterKey)) {
    throw new TypeError('masterKey must be wamk_ followed by at least 32 characters without spaces')
  }
  return digestKey(options.masterKey)
}
