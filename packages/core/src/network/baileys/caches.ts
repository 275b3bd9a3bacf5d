/**
 * Small bounded in-memory structures of a session runtime.
 * @module
 */
import type { CacheStore } from '@whiskeysockets/baileys'
import type { DeliveryStatus } from '../types.js'

/** A set that forgets its oldest entries beyond `capacity`. */
export class RecentIds {
  readonly #ids = new Set<string>()
  constructor(private readonly capacity = 5_000) {}

  has(id: string): boolean {
    return this.#ids.has(id)
  }

  /** Adds; true when the id was new. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false
    this.#ids.add(id)
    if (this.#ids.size > this.capacity) this.#ids.delete(this.#ids.values().next().value as string)
    return true
  }
}

/** A bounded map that keeps the most recent values (by insertion). */
export class RecentMap<V> {
  readonly #map = new Map<string, V>()
  constructor(private readonly capacity = 5_000) {}

  get(key: string): V | undefined {
    return this.#map.get(key)
  }

  set(key: string, value: V): void {
    this.#map.delete(key)
    this.#map.set(key, value)
    if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value as string)
  }

  delete(key: string): void {
    this.#map.delete(key)
  }

  clear(): void {
    this.#map.clear()
  }
}

/**
 * Baileys' `CacheStore` over a bounded map, shared by the sockets of one session so retry counts
 * survive reconnects (a per-socket cache would restart them and allow retry loops).
 */
export function boundedCacheStore(capacity = 2_000): CacheStore {
  const map = new RecentMap<unknown>(capacity)
  return {
    get: <T>(key: string) => map.get(key) as T | undefined,
    set: <T>(key: string, value: T) => {
      map.set(key, value)
    },
    del: (key: string) => {
      map.delete(key)
    },
    flushAll: () => {
      map.clear()
    },
  }
}

const STATUS_RANK: Record<DeliveryStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, played: 4, failed: 5 }

/** Per-session memory of message ids: what we sent, what was delivered to the gateway, how far each status got. */
export class MessageTracker {
  readonly #seen = new RecentIds()
  readonly #sent = new RecentIds()
  readonly #statuses = new RecentMap<number>()

  markSent(id: string): void {
    this.#sent.add(id)
  }

  /** Sent through this driver (its `append` echo is not a received message). */
  sentByUs(id: string): boolean {
    return this.#sent.has(id)
  }

  /** True the first time a received message id is seen (ids are unique per sender, whatever the addressing). */
  firstSeen(id: string): boolean {
    return this.#seen.add(id)
  }

  /** True when `status` moves the message forward (statuses never go back). */
  statusAdvances(id: string, status: DeliveryStatus): boolean {
    const rank = STATUS_RANK[status]
    const previous = this.#statuses.get(id)
    if (previous !== undefined && previous >= rank) return false
    this.#statuses.set(id, rank)
    return true
  }
}
