/**
 * The storage port. Rooms keep their data in named collections of a {@link Store}; only the
 * `store/` folder knows Keyv and its adapters. Values may contain Buffers and Uint8Arrays (they
 * round-trip); everything else must be JSON.
 * @module
 */

/**
 * Writes for {@link Collection.batch}. Deletes apply before sets: an id both deleted and set ends
 * up set, and of repeated sets of one id the last wins.
 */
export interface BatchWrite<T> {
  set?: [id: string, value: T][]
  /** Ids to remove. */
  delete?: string[]
}

export interface Collection<T> {
  readonly name: string
  get(id: string): Promise<T | undefined>
  /** Same order as `ids`; `undefined` where absent. */
  getMany(ids: readonly string[]): Promise<(T | undefined)[]>
  set(id: string, value: T): Promise<void>
  /** Removes; true when something was there. */
  delete(id: string): Promise<boolean>
  /**
   * Several writes and deletes, atomic where the backend allows it (SQLite and Postgres: one
   * transaction; Redis: MULTI). Throws on failure, having written nothing where atomic.
   */
  batch(write: BatchWrite<T>): Promise<void>
  /**
   * Every entry, or those whose id starts with `prefix + ':'` (ids are built with `:` between
   * parts, e.g. `<sessionId>:<messageId>`). Order is unspecified.
   */
  entries(prefix?: string): AsyncIterable<[id: string, value: T]>
  /** Removes every entry, or those under `prefix + ':'`. */
  clear(prefix?: string): Promise<void>
}

export interface Store {
  /** `memory`, `sqlite`, `redis` or `postgres`. */
  readonly kind: StoreKind
  collection<T>(name: string): Collection<T>
  /** Flushes and closes connections. */
  close(): Promise<void>
}

export type StoreKind = 'memory' | 'sqlite' | 'redis' | 'postgres'
