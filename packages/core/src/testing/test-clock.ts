/**
 * A {@link Clock} for tests, on `@sinonjs/fake-timers` without installing it globally (so Keyv and
 * network libraries keep the real time). `await clock.tick(ms)` runs every timer due in that span,
 * letting promises settle between them.
 * @module
 */
import FakeTimers from '@sinonjs/fake-timers'
import type { Clock, TimerHandle } from '../kernel/clock.js'

export interface TestClock extends Clock {
  /** Advances time by `ms`, firing due timers and flushing promises in between. */
  tick(ms: number): Promise<void>
  /** Fires every pending timer, advancing time as needed (at most `maxTimers` of them). */
  runAll(): Promise<void>
  /** Lets pending promise callbacks run without moving time. */
  flush(): Promise<void>
  /** Number of timers armed. */
  pendingTimers(): number
}

/** 2026-01-31T09:15:02.123Z, the spec's example instant. */
export const T0 = Date.UTC(2026, 0, 31, 9, 15, 2, 123)

export function createTestClock(startMs: number = T0): TestClock {
  const fake = FakeTimers.createClock(startMs, 10_000)
  return {
    now: () => fake.now,
    setTimer: (fn, ms) => fake.setTimeout(fn, ms) as unknown as TimerHandle,
    clearTimer: (handle) => fake.clearTimeout(handle as unknown as FakeTimers.TimerId),
    tick: async (ms) => {
      await fake.tickAsync(ms)
    },
    runAll: async () => {
      await fake.runAllAsync()
    },
    flush: async () => {
      await fake.tickAsync(0)
    },
    pendingTimers: () => fake.countTimers(),
  }
}
