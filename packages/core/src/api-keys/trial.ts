/**
 * Trial rules as pure functions of the current time: a trial ends `trialDays` after creation,
 * an extension counts from the later of now and the current end, and a key is expired from the
 * end instant on (`now >= expiresAt`). Not Keyv ttl: Keyv reads the real clock.
 * @module
 */
import { isoAt } from '../kernel/clock.js'
import type { RateLimits } from './records.js'

export const DAY_MS = 86_400_000

/** End of a trial that starts at `nowMs`. */
export function trialExpiryMs(nowMs: number, days: number): number {
  return nowMs + days * DAY_MS
}

/** End of a trial extended at `nowMs`: an expired trial restarts from now. */
export function extendedTrialExpiryMs(currentExpiryMs: number, nowMs: number, days: number): number {
  return Math.max(currentExpiryMs, nowMs) + days * DAY_MS
}

export function isTrialExpired(expiresAtMs: number, nowMs: number): boolean {
  return nowMs >= expiresAtMs
}

/** The `trialInfo.restrictions` lines of the trial creation response. */
export function trialRestrictions(trial: {
  allowedNumbers: readonly string[]
  rateLimits: RateLimits
  maxSessions: number | null
  trialExpiresAtMs: number
}): string[] {
  const lines = [`Messages can only be sent to: ${trial.allowedNumbers.join(', ')}`]
  const sessions = trial.maxSessions
  if (sessions !== null) lines.push(`At most ${sessions} session${sessions === 1 ? '' : 's'} at a time`)
  lines.push(`At most ${trial.rateLimits.messages} messages per minute per session`)
  lines.push(`At most ${trial.rateLimits.general} requests per minute`)
  lines.push(`The key stops working at ${isoAt(trial.trialExpiresAtMs)} unless the trial is extended`)
  return lines
}
