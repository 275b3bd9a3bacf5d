import { randomBytes, randomUUID } from 'node:crypto'

/** Makes unique ids (session ids, key ids, event ids). Injected so tests get stable ids. */
export type NewId = () => string

export const randomId: NewId = () => randomUUID()

/** `n` bytes of cryptographic randomness as URL-safe base64 (for secrets, never for ids tests read). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** A sequential id generator for tests: `prefix-1`, `prefix-2`, … */
export function sequentialIds(prefix = 'id'): NewId {
  let n = 0
  return () => `${prefix}-${++n}`
}
