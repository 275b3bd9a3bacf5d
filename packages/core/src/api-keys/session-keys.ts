/**
 * Session keys (`wask_`) in memory, indexed by hash, and in their collection under
 * `<sessionId>:<id>`, so one prefix clear revokes all keys of a session. The service runs the
 * writes through its write queue.
 * @module
 */
import type { Collection } from '../store/store.js'
import type { SessionKeyRecord } from './records.js'

export class SessionKeyRegistry {
  readonly #collection: Collection<SessionKeyRecord>
  readonly #byHash = new Map<string, SessionKeyRecord>()

  constructor(collection: Collection<SessionKeyRecord>) {
    this.#collection = collection
  }

  get size(): number {
    return this.#byHash.size
  }

  /** Replaces memory with the stored keys. */
  async load(): Promise<void> {
    this.#byHash.clear()
    for await (const [, record] of this.#collection.entries()) this.#byHash.set(record.keyHash, record)
  }

  find(keyHash: string): SessionKeyRecord | undefined {
    return this.#byHash.get(keyHash)
  }

  /** Stores a key, then makes it usable. */
  async add(record: SessionKeyRecord): Promise<void> {
    if (record.sessionId === '' || record.sessionId.includes(':')) {
      throw new TypeError(`bad session id ${JSON.stringify(record.sessionId)}`)
    }
    await this.#collection.set(`${record.sessionId}:${record.id}`, structuredClone(record))
    this.#byHash.set(record.keyHash, record)
  }

  /** Cuts a session's keys off in memory (at once; {@link removeStored} follows). */
  forget(sessionId: string): void {
    for (const [hash, record] of this.#byHash) if (record.sessionId === sessionId) this.#byHash.delete(hash)
  }

  /** Removes a session's keys from the store. */
  async removeStored(sessionId: string): Promise<void> {
    await this.#collection.clear(sessionId)
  }

  /** Sessions holding keys issued under an account key. */
  sessionsOf(accountKeyId: string): string[] {
    const ids = new Set<string>()
    for (const record of this.#byHash.values()) if (record.accountKeyId === accountKeyId) ids.add(record.sessionId)
    return [...ids]
  }
}
