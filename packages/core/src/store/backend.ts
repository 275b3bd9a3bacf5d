/**
 * The internal contract between the generic {@link Store} implementation and one storage engine.
 * Backends see encoded text only (see `codec.ts`) and address entries by `(collection, id)`; each
 * one maps that pair onto its own key layout.
 * @module
 */
import type { StoreKind } from './store.js'

/** One storage engine, addressed by `(collection, id)`, holding encoded text. */
export interface Backend {
  readonly kind: StoreKind
  get(collection: string, id: string): Promise<string | undefined>
  /** Same order as `ids`. */
  getMany(collection: string, ids: readonly string[]): Promise<(string | undefined)[]>
  set(collection: string, id: string, text: string): Promise<void>
  delete(collection: string, id: string): Promise<boolean>
  /**
   * Removes `deletes`, then writes `sets`, as one atomic unit where the engine allows it. The two
   * lists are disjoint and free of duplicates (the caller normalises them).
   */
  batch(collection: string, sets: readonly (readonly [string, string])[], deletes: readonly string[]): Promise<void>
  /** Entries whose id starts with `idPrefix` (`''` for all), filtered by the engine. */
  scan(collection: string, idPrefix: string): AsyncIterable<[id: string, text: string]>
  /** Removes the entries whose id starts with `idPrefix` (`''` for all). */
  clear(collection: string, idPrefix: string): Promise<void>
  close(): Promise<void>
}

/**
 * The longest key (`<collection>:<id>`) a store accepts, on every backend alike: the Postgres key
 * column is `VARCHAR(1024)`.
 */
export const MAX_KEY_LENGTH = 1024

/** How many entries one page of a scan reads. */
export const SCAN_PAGE_SIZE = 500

/**
 * The half-open range `[low, high)` of the keys starting with `prefix`, for engines that compare
 * strings by code point (SQLite BINARY, Postgres `COLLATE "C"`). Key prefixes always end with `:`
 * here, so `;` (the next code point) gives the exclusive bound, and no LIKE wildcard (`_`, `%`) in an
 * id can ever widen the match.
 */
export function prefixRange(prefix: string): { low: string; high: string } {
  if (!prefix.endsWith(':')) throw new Error(`A key prefix must end with ":", got "${prefix}"`)
  return { low: prefix, high: `${prefix.slice(0, -1)};` }
}
