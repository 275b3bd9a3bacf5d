/**
 * Write-behind for hot-path facts (usage counters, lastUsedAt): the caller changes memory at
 * once and marks the id dirty; dirty ids are written at most once per `intervalMs`, on the
 * injected clock, and on `flush()` / `close()`. A failed write keeps its ids dirty for the next
 * round.
 * @module
 */
import type { Clock, TimerHandle } from '../kernel/clock.js'

export interface WriteBehindOptions {
  clock: Clock
  intervalMs: number
  /** Writes the current state of these ids. */
  write(ids: string[]): Promise<void>
  /** Reports a failed timed write (a flush() or close() rethrows instead). */
  onError(err: unknown, ids: readonly string[]): void
}

export class WriteBehind {
  readonly #options: WriteBehindOptions
  readonly #dirty = new Set<string>()
  #timer: TimerHandle | undefined
  #closed = false

  constructor(options: WriteBehindOptions) {
    this.#options = options
  }

  /** Ids waiting to be written. */
  get pending(): number {
    return this.#dirty.size
  }

  /** Marks an id dirty and arms the timer if none is armed. */
  mark(id: string): void {
    this.#dirty.add(id)
    this.#arm()
  }

  /** Writes every dirty id now. */
  async flush(): Promise<void> {
    this.#disarm()
    if (this.#dirty.size === 0) return
    const ids = [...this.#dirty]
    this.#dirty.clear()
    try {
      await this.#options.write(ids)
    } catch (err) {
      for (const id of ids) this.#dirty.add(id)
      this.#arm()
      throw err
    }
  }

  /** Stops the timer for good and writes what is dirty. */
  async close(): Promise<void> {
    this.#closed = true
    await this.flush()
  }

  #arm(): void {
    if (this.#timer !== undefined || this.#closed || this.#dirty.size === 0) return
    this.#timer = this.#options.clock.setTimer(() => {
      this.#timer = undefined
      const ids = [...this.#dirty]
      this.flush().catch((err: unknown) => this.#options.onError(err, ids))
    }, this.#options.intervalMs)
  }

  #disarm(): void {
    if (this.#timer === undefined) return
    this.#options.clock.clearTimer(this.#timer)
    this.#timer = undefined
  }
}
