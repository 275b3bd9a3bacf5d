/**
 * An in-memory AuthStore for tests that behaves like the store's Buffer-safe codec: every value is
 * serialized on write (so anything not JSON-safe would be caught) and decoded on read, and every
 * setKeys call is recorded to check atomic multi-key writes.
 */
import type { AuthStore } from '../../../../src/network/driver.js'

const encode = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
      return { $bytes: Buffer.from((v as { data: number[] }).data).toString('base64') }
    }
    if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') }
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') throw new Error(`not storable: ${typeof v}`)
    return v
  })

const decode = (text: string): unknown =>
  JSON.parse(text, (_k, v: unknown) =>
    v && typeof v === 'object' && typeof (v as { $bytes?: unknown }).$bytes === 'string'
      ? Buffer.from((v as { $bytes: string }).$bytes, 'base64')
      : v,
  )

export interface MemoryAuthStore extends AuthStore {
  creds: string | undefined
  keys: Map<string, string>
  /** Every setKeys call, as given. */
  writes: Record<string, Record<string, unknown>>[]
  credsWrites: number
  clears: number
  /** Makes the next writes fail. */
  failWrites: boolean
  /** Resolves writeCreds only when released (to test the serial queue). */
  holdCreds: boolean
  releaseCreds(): void
}

export function memoryAuthStore(): MemoryAuthStore {
  let held: (() => void)[] = []
  const store: MemoryAuthStore = {
    creds: undefined,
    keys: new Map(),
    writes: [],
    credsWrites: 0,
    clears: 0,
    failWrites: false,
    holdCreds: false,
    releaseCreds() {
      const waiting = held
      held = []
      waiting.forEach((release) => release())
    },
    async readCreds() {
      return store.creds === undefined ? undefined : decode(store.creds)
    },
    async writeCreds(creds) {
      if (store.failWrites) throw new Error('store down')
      const text = encode(creds)
      if (store.holdCreds) await new Promise<void>((resolve) => held.push(resolve))
      store.creds = text
      store.credsWrites += 1
    },
    async getKeys(type, ids) {
      const out: Record<string, unknown> = {}
      for (const id of ids) {
        const text = store.keys.get(`${type}:${id}`)
        if (text !== undefined) out[id] = decode(text)
      }
      return out
    },
    async setKeys(data) {
      if (store.failWrites) throw new Error('store down')
      store.writes.push(data as Record<string, Record<string, unknown>>)
      const staged: [string, string | null][] = []
      for (const [type, entries] of Object.entries(data)) {
        for (const [id, value] of Object.entries(entries)) staged.push([`${type}:${id}`, value == null ? null : encode(value)])
      }
      for (const [key, text] of staged) {
        if (text === null) store.keys.delete(key)
        else store.keys.set(key, text)
      }
    },
    async clear() {
      store.clears += 1
      store.creds = undefined
      store.keys.clear()
    },
  }
  return store
}
