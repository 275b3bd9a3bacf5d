/**
 * Promises that resolve when a session reaches a state, with a timeout on the injected clock.
 * @module
 */
import type { Clock, TimerHandle } from '../kernel/clock.js'

interface Waiter {
  state: string
  resolve: () => void
  reject: (err: Error) => void
  timer: TimerHandle
  clock: Clock
}

export class StateWaiters {
  readonly #bySession = new Map<string, Set<Waiter>>()

  wait(sessionId: string, state: string, timeoutMs: number, clock: Clock): Promise<void> {
    return new Promise((resolve, reject) => {
      let set = this.#bySession.get(sessionId)
      if (!set) this.#bySession.set(sessionId, (set = new Set()))
      const waiters = set
      const waiter: Waiter = {
        state,
        clock,
        resolve,
        reject,
        timer: clock.setTimer(() => {
          waiters.delete(waiter)
          reject(new Error(`timed out waiting for ${state}`))
        }, timeoutMs),
      }
      waiters.add(waiter)
    })
  }

  notify(sessionId: string, state: string): void {
    const set = this.#bySession.get(sessionId)
    if (!set) return
    for (const w of [...set]) {
      if (w.state !== state) continue
      set.delete(w)
      w.clock.clearTimer(w.timer)
      w.resolve()
    }
  }

  rejectSession(sessionId: string): void {
    const set = this.#bySession.get(sessionId)
    if (!set) return
    this.#bySession.delete(sessionId)
    for (const w of set) {
      w.clock.clearTimer(w.timer)
      w.reject(new Error('session removed'))
    }
  }

  rejectAll(): void {
    for (const id of [...this.#bySession.keys()]) this.rejectSession(id)
  }
}
