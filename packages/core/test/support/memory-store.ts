/**
 * A small in-memory {@link Store} for unit tests, faithful to the port's contract: values are
 * copied on the way in and out (as a real backend serializes them), `entries(prefix)` and
 * `clear(prefix)` match ids under `prefix + ':'`. Use `openStore('memory')` instead once the
 * store room provides it, where the real adapters matter.
 * @module
 */
import type { BatchWrite, Collection, Store } from '../../src/store/store.js'

class MemoryCollection<T> implements Collection<T> {
  readonly #data = new Map<string, T>()

  constructor(readonly name: string) {}

  async get(id: string): Promise<T | undefined> {
    const value = this.#data.get(id)
    return value === undefined ? undefined : structuredClone(value)
  }

  async getMany(ids: readonly string[]): Promise<(T | undefined)[]> {
    return Promise.all(ids.map((id) => this.get(id)))
  }

  async set(id: string, value: T): Promise<void> {
    this.#data.set(id, structuredClone(value))
  }

  async delete(id: string): Promise<boolean> {
    return this.#data.delete(id)
  }

  async batch(write: BatchWrite<T>): Promise<void> {
    for (const [id, value] of write.set ?? []) this.#data.set(id, structuredClone(value))
    for (const id of write.delete ?? []) this.#data.delete(id)
  }

  async *entries(prefix?: string): AsyncIterable<[id: string, value: T]> {
    for (const [id, value] of [...this.#data]) {
      if (prefix === undefined || id.startsWith(`${prefix}:`)) yield [id, structuredClone(value)]
    }
  }

  async clear(prefix?: string): Promise<void> {
    for (const id of [...this.#data.keys()]) if (prefix === undefined || id.startsWith(`${prefix}:`)) this.#data.delete(id)
  }
}

/** An in-memory store; collections of the same name share their data, as in a real backend. */
export function createMemoryStore(): Store {
  const collections = new Map<string, MemoryCollection<unknown>>()
  return {
    kind: 'memory',
    collection<T>(name: string): Collection<T> {
      let collection = collections.get(name)
      if (!collection) collections.set(name, (collection = new MemoryCollection<unknown>(name)))
      return collection as Collection<T>
    },
    async close() {},
  }
}
