/**
 * The in-memory index of the outbox: one FIFO queue of pending deliveries per session. Bodies stay
 * in the store; the index holds only what scheduling needs, so a long receiver outage costs the
 * store, not the heap.
 * @module
 */

/** What the scheduler knows about one pending delivery. */
export interface PendingRef {
  key: string
  sessionId: string
  createdAt: number
  seq: number
  nextAttemptAt: number
  /** False while enqueue is still persisting it: a session's queue waits behind it. */
  ready: boolean
  /** Set when the session's deliveries were dropped; an attempt in flight then writes nothing back. */
  removed: boolean
  /** Consecutive attempts that failed on our side (store errors), to back off from them too. */
  internalErrors: number
}

function before(a: PendingRef, b: PendingRef): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.seq < b.seq)
}

export class OutboxIndex {
  readonly #byKey = new Map<string, PendingRef>()
  readonly #bySession = new Map<string, PendingRef[]>()

  has(key: string): boolean {
    return this.#byKey.has(key)
  }

  /** Inserts in (createdAt, seq) order within its session. */
  add(ref: PendingRef): void {
    this.#byKey.set(ref.key, ref)
    let queue = this.#bySession.get(ref.sessionId)
    if (!queue) this.#bySession.set(ref.sessionId, (queue = []))
    let i = queue.length
    while (i > 0 && before(ref, queue[i - 1]!)) i--
    queue.splice(i, 0, ref)
  }

  remove(ref: PendingRef): void {
    if (this.#byKey.get(ref.key) !== ref) return
    this.#byKey.delete(ref.key)
    const queue = this.#bySession.get(ref.sessionId)
    if (!queue) return
    const i = queue.indexOf(ref)
    if (i >= 0) queue.splice(i, 1)
    if (queue.length === 0) this.#bySession.delete(ref.sessionId)
  }

  /** Removes and returns every ref of a session, marked `removed`. */
  removeSession(sessionId: string): PendingRef[] {
    const queue = this.#bySession.get(sessionId) ?? []
    this.#bySession.delete(sessionId)
    for (const ref of queue) {
      ref.removed = true
      this.#byKey.delete(ref.key)
    }
    return queue
  }

  /** The first delivery of every session's queue. */
  *heads(): Iterable<PendingRef> {
    for (const queue of this.#bySession.values()) if (queue[0]) yield queue[0]
  }

  /** Persisted deliveries waiting (placeholders of enqueues still in progress excluded). */
  pendingCount(): number {
    let n = 0
    for (const ref of this.#byKey.values()) if (ref.ready) n++
    return n
  }
}
