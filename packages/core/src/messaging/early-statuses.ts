/**
 * Delivery statuses that arrive before the send that caused them has written its record (a fast
 * network acknowledges inside `driver.send`). Held briefly in memory, bounded.
 * @module
 */
import type { DeliveryStatus } from '../network/types.js'

const MAX_PARKED = 1_000

export class EarlyStatuses {
  readonly #parked = new Map<string, DeliveryStatus>()

  put(key: string, status: DeliveryStatus): void {
    if (this.#parked.size >= MAX_PARKED) {
      const oldest = this.#parked.keys().next().value
      if (oldest !== undefined) this.#parked.delete(oldest)
    }
    this.#parked.set(key, status)
  }

  take(key: string): DeliveryStatus | undefined {
    const status = this.#parked.get(key)
    this.#parked.delete(key)
    return status
  }
}

/** A bounded set of recently seen keys (oldest forgotten first). */
export class RecentKeys {
  readonly #keys = new Set<string>()

  constructor(private readonly max: number) {}

  /** Adds `key`; false when it was already there. */
  add(key: string): boolean {
    if (this.#keys.has(key)) return false
    if (this.#keys.size >= this.max) {
      const oldest = this.#keys.values().next().value
      if (oldest !== undefined) this.#keys.delete(oldest)
    }
    this.#keys.add(key)
    return true
  }
}
