/**
 * An in-memory {@link Store} for the sandbox's tests, faithful to the port: values are copied on
 * the way in and out (Buffers come back as Buffers, as the real codec keeps them), and
 * `entries(prefix)` / `clear(prefix)` match ids under `prefix + ':'`. `failWrites` makes every
 * write reject, to test what a broken backend does.
 */
import type { AuthStore, BatchWrite, Collection, Store } from '@switchboard/core'

const copy = <T>(value: T): T => {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value) as T
  if (Array.isArray(value)) return value.map(copy) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, copy(v)])) as T
  }
  return value
}

class MemoryCollection<T> implements Collection<T> {
  readonly data = new Map<string, T>()

  constructor(
    readonly name: string,
    private readonly owner: MemoryStore,
  ) {}

  async get(id: string): Promise<T | undefined> {
    const value = this.data.get(id)
    return value === undefined ? undefined : copy(value)
  }

  async getMany(ids: readonly string[]): Promise<(T | undefined)[]> {
    return Promise.all(ids.map((id) => this.get(id)))
  }

  async set(id: string, value: T): Promise<void> {
    this.owner.checkWrite()
    this.data.set(id, copy(value))
  }

  async delete(id: string): Promise<boolean> {
    this.owner.checkWrite()
    return this.data.delete(id)
  }

  async batch(write: BatchWrite<T>): Promise<void> {
    this.owner.checkWrite()
    this.owner.writes++
    for (const [id, value] of write.set ?? []) this.data.set(id, copy(value))
    for (const id of write.delete ?? []) this.data.delete(id)
  }

  async *entries(prefix?: string): AsyncIterable<[id: string, value: T]> {
    for (const [id, value] of [...this.data]) if (prefix === undefined || id.startsWith(`${prefix}:`)) yield [id, copy(value)]
  }

  async clear(prefix?: string): Promise<void> {
    this.owner.checkWrite()
    for (const id of [...this.data.keys()]) if (prefix === undefined || id.startsWith(`${prefix}:`)) this.data.delete(id)
  }
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const
  readonly collections = new Map<string, MemoryCollection<unknown>>()
  failWrites: Error | undefined
  writes = 0

  collection<T>(name: string): Collection<T> {
    let collection = this.collections.get(name)
    if (!collection) this.collections.set(name, (collection = new MemoryCollection<unknown>(name, this)))
    return collection as Collection<T>
  }

  /** The raw entries of a collection (tests peek at what was persisted). */
  dump(name: string): Map<string, unknown> {
    return this.collections.get(name)?.data ?? new Map()
  }

  checkWrite(): void {
    if (this.failWrites) throw this.failWrites
  }

  async close(): Promise<void> {}
}

/** An auth store over a plain map, shared across "restarts" when the same instance is reused. */
export class MemoryAuthStore implements AuthStore {
  creds: unknown
  keys = new Map<string, unknown>()
  clears = 0

  async readCreds(): Promise<unknown> {
    return this.creds === undefined ? undefined : copy(this.creds)
  }

  async writeCreds(creds: unknown): Promise<void> {
    this.creds = copy(creds)
  }

  async getKeys(type: string, ids: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {}
    for (const id of ids) if (this.keys.has(`${type}:${id}`)) out[id] = this.keys.get(`${type}:${id}`)
    return out
  }

  async setKeys(data: Record<string, Record<string, unknown | null>>): Promise<void> {
    for (const [type, entries] of Object.entries(data)) {
      for (const [id, value] of Object.entries(entries)) {
        if (value === null) this.keys.delete(`${type}:${id}`)
        else this.keys.set(`${type}:${id}`, value)
      }
    }
  }

  async clear(): Promise<void> {
    this.clears++
    this.creds = undefined
    this.keys.clear()
  }
}
