/**
 * The one {@link Store} implementation, over any {@link Backend}: names and keys are checked here,
 * values are encoded here (so a bad value fails before anything is written), and batches are
 * normalised here, which keeps the backends small and alike.
 * @module
 */
import type { Logger } from '../kernel/index.js'
import type { Backend } from './backend.js'
import { MAX_KEY_LENGTH } from './backend.js'
import { decodeValue, encodeValue } from './codec.js'
import type { BatchWrite, Collection, Store, StoreKind } from './store.js'

/** Wraps an open backend as a {@link Store}; closing the store closes the backend. */
export function storeOverBackend(backend: Backend, logger: Logger): Store {
  return new BackendStore(backend, logger)
}

class BackendStore implements Store {
  readonly #backend: Backend
  readonly #logger: Logger
  readonly #collections = new Map<string, Collection<unknown>>()
  readonly #inFlight = new Set<Promise<unknown>>()
  #closing: Promise<void> | undefined

  constructor(backend: Backend, logger: Logger) {
    this.#backend = backend
    this.#logger = logger
  }

  get kind(): StoreKind {
    return this.#backend.kind
  }

  collection<T>(name: string): Collection<T> {
    if (name === '' || name.includes(':')) {
      throw new Error(`Invalid collection name "${name}": it must be non-empty and free of ":"`)
    }
    let collection = this.#collections.get(name)
    if (collection === undefined) {
      collection = new BackendCollection<unknown>(name, this.#backend, {
        run: (op) => this.#track(op),
        assertOpen: () => this.#assertOpen(),
      })
      this.#collections.set(name, collection)
    }
    return collection as Collection<T>
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.allSettled([...this.#inFlight])
      await this.#backend.close()
      this.#logger.debug({ store: this.kind }, 'store closed')
    })()
    return this.#closing
  }

  #assertOpen(): void {
    if (this.#closing !== undefined) throw new Error('Store is closed')
  }

  /** Runs `op` unless the store is closing; close() waits for what is running. */
  #track<R>(op: () => Promise<R>): Promise<R> {
    if (this.#closing !== undefined) return Promise.reject(new Error('Store is closed'))
    const running = op()
    this.#inFlight.add(running)
    const forget = (): void => {
      this.#inFlight.delete(running)
    }
    running.then(forget, forget)
    return running
  }
}

interface Guard {
  /** Runs an operation, or rejects once the store is closing. */
  run<R>(op: () => Promise<R>): Promise<R>
  assertOpen(): void
}

class BackendCollection<T> implements Collection<T> {
  readonly name: string
  readonly #backend: Backend
  readonly #guard: Guard

  constructor(name: string, backend: Backend, guard: Guard) {
    this.name = name
    this.#backend = backend
    this.#guard = guard
  }

  get(id: string): Promise<T | undefined> {
    return this.#guard.run(async () => decodeOptional<T>(await this.#backend.get(this.name, id)))
  }

  getMany(ids: readonly string[]): Promise<(T | undefined)[]> {
    return this.#guard.run(async () => {
      const texts = await this.#backend.getMany(this.name, ids)
      return texts.map((text) => decodeOptional<T>(text))
    })
  }

  set(id: string, value: T): Promise<void> {
    return this.#guard.run(async () => {
      this.#checkKey(id)
      await this.#backend.set(this.name, id, this.#encode(id, value))
    })
  }

  delete(id: string): Promise<boolean> {
    return this.#guard.run(() => this.#backend.delete(this.name, id))
  }

  batch(write: BatchWrite<T>): Promise<void> {
    return this.#guard.run(async () => {
      const sets = new Map<string, string>()
      for (const [id, value] of write.set ?? []) {
        this.#checkKey(id)
        sets.set(id, this.#encode(id, value))
      }
      const deletes = [...new Set(write.delete ?? [])].filter((id) => !sets.has(id))
      if (sets.size === 0 && deletes.length === 0) return
      await this.#backend.batch(this.name, [...sets], deletes)
    })
  }

  async *entries(prefix?: string): AsyncIterable<[id: string, value: T]> {
    this.#guard.assertOpen()
    for await (const [id, text] of this.#backend.scan(this.name, idPrefix(prefix))) {
      yield [id, decodeValue(text) as T]
    }
  }

  clear(prefix?: string): Promise<void> {
    return this.#guard.run(() => this.#backend.clear(this.name, idPrefix(prefix)))
  }

  #encode(id: string, value: T): string {
    try {
      return encodeValue(value)
    } catch (err) {
      throw new TypeError(`${(err as Error).message} (collection "${this.name}", id "${id}")`, { cause: err })
    }
  }

  #checkKey(id: string): void {
    if (this.name.length + 1 + id.length > MAX_KEY_LENGTH) {
      const shown = `${this.name}:${id.slice(0, 40)}…`
      throw new RangeError(`Store key too long: "${shown}" exceeds ${MAX_KEY_LENGTH} characters`)
    }
  }
}

function idPrefix(prefix: string | undefined): string {
  return prefix === undefined ? '' : `${prefix}:`
}

function decodeOptional<T>(text: string | undefined): T | undefined {
  return text === undefined ? undefined : (decodeValue(text) as T)
}
