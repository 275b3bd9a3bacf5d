/**
 * Turns Baileys values (protobuf instances, Longs, Uint8Arrays) into plain JSON-safe data the
 * store's Buffer-safe codec keeps, and back. Used for creds, signal keys, our own key types and
 * the `raw` WAMessage handed to the gateway.
 * @module
 */
import { proto, type WAMessage } from '@whiskeysockets/baileys'

interface LongLike {
  low: number
  high: number
  unsigned?: boolean
  toNumber?: () => number
  toString?: () => string
}

const isLongLike = (value: object): value is LongLike => {
  const v = value as Partial<LongLike>
  if (typeof v.low !== 'number' || typeof v.high !== 'number') return false
  if (typeof v.toNumber === 'function') return true
  const keys = Object.keys(value)
  return keys.length <= 3 && keys.every((k) => k === 'low' || k === 'high' || k === 'unsigned')
}

function longToNumber(value: LongLike): number | string {
  const unsigned = value.unsigned === true
  const big = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0)
  const signed = unsigned ? big : BigInt.asIntN(64, big)
  return signed <= BigInt(Number.MAX_SAFE_INTEGER) && signed >= BigInt(Number.MIN_SAFE_INTEGER)
    ? Number(signed)
    : signed.toString()
}

/**
 * A deep copy made of JSON values and Buffers only: Longs become numbers (strings when beyond
 * 2^53), Uint8Arrays become Buffers, protobuf instances become plain objects, `undefined` and
 * functions are dropped.
 */
export function toJsonSafe(value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (typeof value === 'bigint') return value.toString()
  if (typeof value !== 'object') return typeof value === 'function' ? undefined : value
  if (Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map((item) => toJsonSafe(item) ?? null)
  if (isLongLike(value)) return longToNumber(value)
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const safe = toJsonSafe(item)
    if (safe !== undefined) out[key] = safe
  }
  return out
}

/** Reads back stored values: any Uint8Array becomes a Buffer (Baileys calls Buffer methods on keys). */
export function fromStored<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value
  if (Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength) as T
  if (Array.isArray(value)) return value.map((item: unknown) => fromStored(item)) as T
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) out[key] = fromStored(item)
  return out as T
}

/** The JSON-safe form of a WAMessage, as handed to the gateway in `raw`. */
export function messageToRaw(message: WAMessage): Record<string, unknown> {
  return toJsonSafe(message) as Record<string, unknown>
}

/** Rebuilds a WAMessage from a recorded `raw` (undefined when it is not one). */
export function rawToMessage(raw: unknown): WAMessage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined
  const stored = fromStored(raw) as Partial<WAMessage>
  if (!stored.key || typeof stored.key !== 'object' || typeof stored.key.id !== 'string') return undefined
  const message = stored.message ? proto.Message.fromObject(stored.message as Record<string, unknown>) : stored.message
  return { ...stored, key: stored.key, message } as WAMessage
}

/** A number from a number, Long or numeric string (0 when absent). */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') return Number(value) || 0
  if (value !== null && typeof value === 'object' && isLongLike(value)) return Number(longToNumber(value))
  return 0
}
