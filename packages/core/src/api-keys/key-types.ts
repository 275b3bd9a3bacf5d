/**
 * Defaults per key type (interface spec, Limits). `type` is open-ended: a type not listed here
 * gets the standard defaults.
 * @module
 */
import type { RateLimits } from './records.js'

export interface KeyTypeDefaults {
  rateLimits: RateLimits
  /** null: unlimited concurrent sessions. */
  maxSessions: number | null
}

export const STANDARD_DEFAULTS: KeyTypeDefaults = { rateLimits: { general: 100, messages: 30, sessions: 10 }, maxSessions: null }
export const PREMIUM_DEFAULTS: KeyTypeDefaults = { rateLimits: { general: 500, messages: 100, sessions: 50 }, maxSessions: null }
/** Trial plan: one session (spec: "trial 1 session, 10 messages per minute"). */
export const TRIAL_DEFAULTS: KeyTypeDefaults = { rateLimits: { general: 50, messages: 10, sessions: 2 }, maxSessions: 1 }

const DEFAULTS_BY_TYPE: ReadonlyMap<string, KeyTypeDefaults> = new Map([
  ['standard', STANDARD_DEFAULTS],
  ['premium', PREMIUM_DEFAULTS],
  ['trial', TRIAL_DEFAULTS],
])

/** The defaults of a type (a fresh copy); unknown types get the standard ones. */
export function defaultsForType(type: string): KeyTypeDefaults {
  const defaults = DEFAULTS_BY_TYPE.get(type) ?? STANDARD_DEFAULTS
  return { rateLimits: { ...defaults.rateLimits }, maxSessions: defaults.maxSessions }
}
