/**
 * Time is a port. Everything in core reads time and arms timers through a {@link Clock}, so tests
 * advance an injected clock instead of sleeping. This file is the only place that touches the real
 * clock.
 * @module
 */

/** An opaque handle returned by {@link Clock.setTimer}. */
export interface TimerHandle {
  readonly __timer?: never
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /** Runs `fn` once after `ms` milliseconds. Delays longer than 2^31-1 ms are supported. */
  setTimer(fn: () => void, ms: number): TimerHandle
  clearTimer(handle: TimerHandle): void
}

/** Node fires longer delays at once, so longer waits are chained. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1

interface SystemTimer extends TimerHandle {
  inner: ReturnType<typeof setTimeout> | undefined
}

/**
 * The real clock. Its timers keep the process alive like Node's own (an embedding script waiting
 * for a QR must not exit); `gateway.close()` clears every timer it armed.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const handle: SystemTimer = { inner: undefined }
    const arm = (remainingMs: number): void => {
      const step = Math.min(Math.max(0, remainingMs), MAX_TIMER_DELAY_MS)
      handle.inner = setTimeout(() => {
        if (remainingMs > MAX_TIMER_DELAY_MS) arm(remainingMs - MAX_TIMER_DELAY_MS)
        else fn()
      }, step)
    }
    arm(ms)
    return handle
  },
  clearTimer(handle) {
    const inner = (handle as SystemTimer).inner
    if (inner !== undefined) clearTimeout(inner)
  },
}

/** ISO 8601 UTC with milliseconds, the spec's timestamp form. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString()
}

/** Unix seconds, the spec's integer timestamp form. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}

/** Resolves after `ms` on the given clock (a test clock resolves when it is ticked). */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(resolve, ms))
}
