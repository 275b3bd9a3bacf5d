/**
 * Remembers which numbers are on WhatsApp, per session, so sends do not ask the network every
 * time (each look-up is traffic WhatsApp watches). Registered answers live longer than
 * unregistered ones, since a number can join at any time.
 * @module
 */
import type { Clock } from '../kernel/clock.js'

const REGISTERED_TTL_MS = 6 * 60 * 60_000
const UNREGISTERED_TTL_MS = 5 * 60_000
const MAX_ENTRIES = 50_000

export class RegistrationCache {
  readonly #entries = new Map<string, { exists: boolean; untilMs: number }>()

  constructor(private readonly clock: Clock) {}

  get(sessionId: string, jid: string): boolean | undefined {
    const key = `${sessionId}:${jid}`
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.untilMs <= this.clock.now()) {
      this.#entries.delete(key)
      return undefined
    }
    return entry.exists
  }

  set(sessionId: string, jid: string, exists: boolean): void {
    if (this.#entries.size >= MAX_ENTRIES) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
    const ttl = exists ? REGISTERED_TTL_MS : UNREGISTERED_TTL_MS
    this.#entries.set(`${sessionId}:${jid}`, { exists, untilMs: this.clock.now() + ttl })
  }

  forgetSession(sessionId: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(`${sessionId}:`)) this.#entries.delete(key)
  }
}
