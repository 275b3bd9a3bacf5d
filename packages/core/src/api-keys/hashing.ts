/**
 * Key secrets: generation, hashing and constant-time comparison. Raw keys are never stored; a
 * SHA-256 digest is enough for 32 random bytes (decisions.md), and digests are compared with
 * `timingSafeEqual` so the comparison time says nothing about how much of a guess was right.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { randomSecret } from '../kernel/ids.js'

/** Prefix of admin and managed (tenant) keys. */
export const MANAGED_KEY_PREFIX = 'wamk_'
/** Prefix of session keys. */
export const SESSION_KEY_PREFIX = 'wask_'
/** The master key is `wamk_` followed by at least this many characters. */
export const MASTER_KEY_MIN_SECRET_CHARS = 32

/** A fresh raw key: the prefix and 32 random bytes as 43 base64url characters. */
export function generateKey(prefix: typeof MANAGED_KEY_PREFIX | typeof SESSION_KEY_PREFIX): string {
  return `${prefix}${randomSecret(32)}`
}

/** SHA-256 digest of a raw key. */
export function digestKey(raw: string): Buffer {
  return createHash('sha256').update(raw, 'utf8').digest()
}

/** SHA-256 of a raw key as lower-case hex, the form stored and indexed. */
export function hashKey(raw: string): string {
  return digestKey(raw).toString('hex')
}

/**
 * Constant-time equality of two digests. Digests of one algorithm have one length; a length
 * mismatch (a corrupt stored hash) is a plain `false`.
 */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) return false
  return timingSafeEqual(a, b)
}

/** True for a well-formed master key: `wamk_` and at least 32 non-space characters. */
export function isValidMasterKey(raw: string): boolean {
  const secret = raw.startsWith(MANAGED_KEY_PREFIX) ? raw.slice(MANAGED_KEY_PREFIX.length) : ''
  return secret.length >= MASTER_KEY_MIN_SECRET_CHARS && !/\s/.test(secret)
}
