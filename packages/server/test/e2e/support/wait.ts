import type { TestClock } from '@switchboard/core/testing'

export interface WaitOptions {
  /** Real time to give up after (only a failing test waits that long). @default 10000 */
  timeoutMs?: number
  /** Ticks this clock by `tickMs` between two checks (timers of the server under test). */
  clock?: TestClock
  /** @default 10 */
  tickMs?: number
  /** What is awaited, for the timeout message. */
  what?: string
}

/** Real time between two checks: short, so a test waits only as long as the server needs. */
const POLL_MS = 10

/** Resolves after `ms` of real time (never more than a poll step in these tests). */
export const pause = (ms = POLL_MS): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Polls `check` until it returns something other than undefined or false, and resolves with it.
 * Between checks it waits a few real milliseconds (HTTP round trips, store I/O) and, with a
 * `clock`, ticks it (the server's own timers: sandbox delays, webhook retries).
 */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000)
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${options.what ?? 'a condition'}`)
    if (options.clock) await options.clock.tick(options.tickMs ?? 10)
    await pause()
  }
}
