/**
 * The value codec of every store backend: JSON text in which bytes survive.
 *
 * Rules (the same on every backend, memory included, so a test on memory sees what production sees):
 * - `Buffer` and `Uint8Array`, at any depth, come back as `Buffer` (encoded as `{"$b":"<base64>"}`;
 *   a user key starting with `$` is escaped by one more `$`, so no stored object is ever mistaken
 *   for bytes).
 * - Everything else follows `JSON.stringify`: `toJSON()` is honoured (a `Date` comes back as its ISO
 *   string; a protobufjs message as its `toJSON()` object, with bytes as base64 strings and 64-bit
 *   integers as decimal strings), `undefined` properties are dropped, `NaN` and `±Infinity` become
 *   `null`, class instances come back as plain objects of their own enumerable properties (a bare
 *   `Long` as `{ low, high, unsigned }`). This is exactly what Baileys' `BufferJSON` gives.
 * - Values JSON would silently mangle are refused with a `TypeError`: `Map`, `Set`, `ArrayBuffer`,
 *   typed arrays other than `Uint8Array`, `DataView`, `bigint`, and an `undefined`, function or symbol
 *   as the whole value. Circular structures are refused too (by `JSON.stringify`).
 * @module
 */

const BYTES = '$b'

/** Encodes a value to its stored text. Throws a `TypeError` for values the store cannot keep. */
export function encodeValue(value: unknown): string {
  const text = JSON.stringify(value, replacer)
  if (text === undefined) throw new TypeError(`Cannot store ${describe(value)}: not a JSON value`)
  return text
}

/** Decodes stored text; bytes come back as `Buffer`. */
export function decodeValue(text: string): unknown {
  return JSON.parse(text, reviver)
}

/*
 * JSON.stringify hands the replacer the value after toJSON(), so the original is read from the
 * holder: that is how a Buffer (whose toJSON gives `{ type, data: number[] }`) is recognised.
 */
function replacer(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key]
  if (original instanceof Uint8Array) {
    return { [BYTES]: Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64') }
  }
  if (typeof value === 'bigint') throw new TypeError(`Cannot store a bigint${at(key)}`)
  if (value === null || typeof value !== 'object') return value
  if (value instanceof Map || value instanceof Set || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    throw new TypeError(`Cannot store ${describe(value)}${at(key)}: not a JSON value`)
  }
  if (Array.isArray(value)) return value
  if (!Object.keys(value).some(isEscapable)) return value
  return renameKeys(value as Record<string, unknown>, (k) => (isEscapable(k) ? `$${k}` : k))
}

function reviver(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const keys = Object.keys(value)
  const record = value as Record<string, unknown>
  if (keys.length === 1 && keys[0] === BYTES && typeof record[BYTES] === 'string') {
    return Buffer.from(record[BYTES], 'base64')
  }
  return keys.some(isEscapable) ? renameKeys(record, (k) => (isEscapable(k) ? k.slice(1) : k)) : value
}

/** Where in the value a refused part sits (the top level has the empty key). */
function at(key: string): string {
  return key === '' ? '' : ` at "${key}"`
}

function isEscapable(key: string): boolean {
  return key.startsWith('$')
}

/** `Object.fromEntries` defines own properties, so a `__proto__` key stays a plain key. */
function renameKeys(value: Record<string, unknown>, rename: (key: string) => string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), v]))
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function'
  if (value === null || typeof value !== 'object') return `a value of type ${typeof value}`
  const name: string = value.constructor?.name ?? 'null-prototype object'
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`
}
