/**
 * Authorization as pure functions of a {@link Principal}: which access rule a key meets, which
 * sessions it reaches, and where a trial key may send.
 * @module
 */
import { phoneOfJid } from '../addressing/jid.js'
import { parsePhone } from '../addressing/phone.js'
import { GatewayError } from '../errors/index.js'
import type { AccessRule, Principal } from '../operations/types.js'

/** The ownership facts of a session that access depends on. */
export interface SessionOwnership {
  id: string
  /** The key that created the session. Unknown (undefined) reaches only admins and its own session key. */
  accountKeyId?: string | undefined
}

/**
 * True when the principal may reach the session: admins reach every session, a session key only
 * its own, any other `wamk_` key the sessions it created.
 */
export function canAccessSession(principal: Principal, session: SessionOwnership): boolean {
  if (principal.kind === 'session') return principal.sessionId === session.id
  if (principal.isAdmin) return true
  return session.accountKeyId !== undefined && session.accountKeyId === principal.accountKeyId
}

/**
 * Throws unless the principal meets the rule:
 * - `public`: anyone, even without a key;
 * - `admin`: an admin key, else `ADMIN_KEY_REQUIRED` (session keys and tenant keys included);
 * - `tenant`: any `wamk_` key, else `ADMIN_KEY_REQUIRED`; with `session`, also a key that reaches it
 *   (a tenant key only the sessions it created), else `SESSION_ACCESS_DENIED`;
 * - `session`: a key that reaches `session` (see {@link canAccessSession}), else `SESSION_ACCESS_DENIED`.
 *   Without `session` only the key-level part is checked (every key may call session operations),
 *   for the caller that answers 404 for an unknown session; pass the session whenever it exists.
 *
 * A missing principal on a non-public rule is `API_KEY_REQUIRED`. For a session key only
 * `session.id` matters, so the check can run before the session is looked up: a session key then
 * gets 403 for a foreign id whether or not that session exists.
 */
export function assertAccess(principal: Principal | undefined, rule: AccessRule, session?: SessionOwnership): void {
  if (rule === 'public') return
  if (principal === undefined) throw new GatewayError('API_KEY_REQUIRED')
  switch (rule) {
    case 'admin':
      if (!principal.isAdmin) throw new GatewayError('ADMIN_KEY_REQUIRED')
      return
    case 'tenant':
      if (principal.kind === 'session') throw new GatewayError('ADMIN_KEY_REQUIRED')
      // A tenant operation on a session (delete) reaches only the sessions the key may reach.
      if (session !== undefined && !canAccessSession(principal, session)) throw new GatewayError('SESSION_ACCESS_DENIED')
      return
    case 'session':
      if (session !== undefined && !canAccessSession(principal, session)) throw new GatewayError('SESSION_ACCESS_DENIED')
      return
  }
}

/**
 * Throws `TRIAL_RECIPIENT_NOT_ALLOWED` (naming the allowed numbers) when a trial key sends to a
 * number outside its `allowedNumbers`. `recipient` is a phone number (digits, `+`, separators) or
 * a user JID; groups, linked identities and anything else that is not one of the numbers are refused.
 */
export function assertTrialRecipient(principal: Principal, recipient: string): void {
  const trial = principal.trial
  if (trial === undefined) return
  const digits = recipient.includes('@') ? phoneOfJid(recipient) : parsePhone(recipient)
  if (digits !== undefined && trial.allowedNumbers.includes(digits)) return
  throw new GatewayError('TRIAL_RECIPIENT_NOT_ALLOWED', { allowedNumbers: trial.allowedNumbers })
}
