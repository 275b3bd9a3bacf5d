/**
 * Types and helpers shared by the store conformance suite's parts.
 */
import type { Context } from 'mocha'
import type { Store, StoreKind } from '../../../src/store/index.js'

export interface StoreHarness {
  readonly kind: StoreKind
  /** Opens a new store (new connection) on this run's data. */
  open(): Promise<Store>
  /** Whether data written before `close()` is there after the next `open()`. */
  readonly persistent: boolean
  /**
   * Makes the backend itself refuse (inside a transaction) any write of a key containing
   * `poison`; absent where a backend cannot fail that way or has no rollback.
   */
  installPoison?(): Promise<void>
  /** Removes everything this run wrote. */
  dispose(): Promise<void>
}

export type HarnessFactory = (ctx: Context) => Promise<StoreHarness>

export interface SuiteContext {
  /** A store opened for the current test (closed after it). */
  store(): Store
  /** A collection name unique to the current test. */
  name(): string
  harness(): StoreHarness
  /** Opens one more store on the same data (closed after the test). */
  reopen(): Promise<Store>
}

/** Collects an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) out.push(item)
  return out
}

/** Asserts that `promise` rejects and returns the error. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (err) {
    return err as Error
  }
  throw new Error('expected a rejection')
}

/** The ids of a collection (under `prefix`), sorted. */
export async function idsOf(store: Store, name: string, prefix?: string): Promise<string[]> {
  return (await collect(store.collection(name).entries(prefix))).map(([id]) => id).sort()
}

