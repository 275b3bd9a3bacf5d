/**
 * Principals (what an authenticated key may do, under which limits) built from key records. The
 * checks that depend on time and state live here: a deactivated key is refused before an expired
 * trial, and a session key inherits every check and limit of the key that created its session.
 * @module
 */
import { GatewayError } from '../errors/index.js'
import type { Principal } from '../operations/types.js'
import { MASTER_KEY_ID, type ManagedApiKey, type RateLimits } from './records.js'
import { isTrialExpired } from './trial.js'

/** The master admin key: every session, the configured defaults, unlimited sessions. */
export function masterPrincipal(defaults: RateLimits): Principal {
  return {
    kind: 'master',
    keyId: MASTER_KEY_ID,
    isAdmin: true,
    accountKeyId: MASTER_KEY_ID,
    limits: { ...defaults, maxSessions: null },
  }
}

/**
 * The principal of a managed key at `nowMs`; throws `API_KEY_DEACTIVATED` for an inactive key and
 * `TRIAL_EXPIRED` from the trial's end on.
 */
export function managedPrincipal(key: ManagedApiKey, nowMs: number): Principal {
  if (!key.isActive) throw new GatewayError('API_KEY_DEACTIVATED')
  const principal: Principal = {
    kind: 'managed',
    keyId: key.id,
    isAdmin: key.isAdmin,
    accountKeyId: key.id,
    limits: { ...key.rateLimits, maxSessions: key.maxSessions },
  }
  if (key.isTrial && key.trialExpiresAtMs !== null) {
    if (isTrialExpired(key.trialExpiresAtMs, nowMs)) throw new GatewayError('TRIAL_EXPIRED')
    principal.trial = { expiresAtMs: key.trialExpiresAtMs, allowedNumbers: [...(key.allowedNumbers ?? [])] }
  }
  return principal
}

/** The principal of a session key, given the principal of its account key. Never an admin. */
export function sessionPrincipal(sessionKey: { id: string; sessionId: string }, account: Principal): Principal {
  const principal: Principal = {
    kind: 'session',
    keyId: sessionKey.id,
    isAdmin: false,
    sessionId: sessionKey.sessionId,
    accountKeyId: account.accountKeyId,
    limits: { ...account.limits },
  }
  const trial = account.trial
  if (trial !== undefined) principal.trial = { expiresAtMs: trial.expiresAtMs, allowedNumbers: [...trial.allowedNumbers] }
  return principal
}
