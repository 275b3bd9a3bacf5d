import { expect } from 'chai'
import { assertAccess, assertTrialRecipient, canAccessSession } from '../../src/api-keys/access.js'
import type { Principal } from '../../src/operations/types.js'
import { DE, expectGatewayError, US } from './helpers.js'

const limits = { general: 100, messages: 30, sessions: 10, maxSessions: null }
const master: Principal = { kind: 'master', keyId: 'master', isAdmin: true, accountKeyId: 'master', limits }
const adminKey: Principal = { kind: 'managed', keyId: 'adm', isAdmin: true, accountKeyId: 'adm', limits }
const tenant: Principal = { kind: 'managed', keyId: 't1', isAdmin: false, accountKeyId: 't1', limits }
const sessionKey: Principal = { kind: 'session', keyId: 'sk', isAdmin: false, sessionId: 's1', accountKeyId: 't1', limits }
const trial: Principal = { ...tenant, trial: { expiresAtMs: 1, allowedNumbers: [US, DE] } }

const DENIED = ['SESSION_ACCESS_DENIED', 'This API key can only access its own session'] as const
const ADMIN = ['ADMIN_KEY_REQUIRED', 'Admin API key required'] as const

describe('assertAccess(principal, rule, session?)', () => {
  it("'public' lets anyone through, even without a key", () => {
    expect(() => assertAccess(undefined, 'public')).not.to.throw()
  })

  it('a missing principal is API_KEY_REQUIRED', async () => {
    for (const rule of ['admin', 'tenant', 'session'] as const) {
      await expectGatewayError(
        () => assertAccess(undefined, rule, { id: 's1' }),
        'API_KEY_REQUIRED',
        'API key required. Please provide an API key via X-API-Key header.',
      )
    }
  })

  it("'admin' needs an admin key: the master or a managed admin key", async () => {
    assertAccess(master, 'admin')
    assertAccess(adminKey, 'admin')
    await expectGatewayError(() => assertAccess(tenant, 'admin'), ...ADMIN)
    await expectGatewayError(() => assertAccess(sessionKey, 'admin'), ...ADMIN)
  })

  it("'tenant' needs a wamk_ key; a session key gets ADMIN_KEY_REQUIRED", async () => {
    assertAccess(master, 'tenant')
    assertAccess(adminKey, 'tenant')
    assertAccess(tenant, 'tenant')
    await expectGatewayError(() => assertAccess(sessionKey, 'tenant'), ...ADMIN)
  })

  it("'tenant' on a session (delete): a tenant key reaches only the sessions it created, admins all", async () => {
    assertAccess(tenant, 'tenant', { id: 's1', accountKeyId: 't1' })
    assertAccess(master, 'tenant', { id: 's2', accountKeyId: 't1' })
    assertAccess(adminKey, 'tenant', { id: 's2', accountKeyId: 'other' })
    await expectGatewayError(() => assertAccess(tenant, 'tenant', { id: 's2', accountKeyId: 'other' }), ...DENIED)
    await expectGatewayError(() => assertAccess(tenant, 'tenant', { id: 's3', accountKeyId: 'master' }), ...DENIED)
    await expectGatewayError(() => assertAccess(sessionKey, 'tenant', { id: 's1', accountKeyId: 't1' }), ...ADMIN)
  })

  it("'session': a session key reaches only its own session", async () => {
    assertAccess(sessionKey, 'session', { id: 's1', accountKeyId: 't1' })
    assertAccess(sessionKey, 'session', { id: 's1' })
    await expectGatewayError(() => assertAccess(sessionKey, 'session', { id: 's2', accountKeyId: 't1' }), ...DENIED)
  })

  it("'session': a non-admin managed key reaches only the sessions it created", async () => {
    assertAccess(tenant, 'session', { id: 's1', accountKeyId: 't1' })
    await expectGatewayError(() => assertAccess(tenant, 'session', { id: 's2', accountKeyId: 'other' }), ...DENIED)
    await expectGatewayError(() => assertAccess(tenant, 'session', { id: 's3', accountKeyId: 'master' }), ...DENIED)
    await expectGatewayError(() => assertAccess(tenant, 'session', { id: 's4' }), ...DENIED)
  })

  it("'session': admins reach every session", () => {
    assertAccess(master, 'session', { id: 's2', accountKeyId: 't1' })
    assertAccess(adminKey, 'session', { id: 's2', accountKeyId: 'master' })
    assertAccess(adminKey, 'session', { id: 's2' })
  })

  it("'session' without a session checks only that a key is there", () => {
    assertAccess(sessionKey, 'session')
    assertAccess(tenant, 'session')
  })

  it('canAccessSession() answers the same question as a boolean', () => {
    expect(canAccessSession(sessionKey, { id: 's1' })).to.equal(true)
    expect(canAccessSession(sessionKey, { id: 's2', accountKeyId: 't1' })).to.equal(false)
    expect(canAccessSession(tenant, { id: 's2', accountKeyId: 't1' })).to.equal(true)
    expect(canAccessSession(master, { id: 'x' })).to.equal(true)
  })
})

describe('assertTrialRecipient(principal, recipient)', () => {
  const NOT_ALLOWED = ['TRIAL_RECIPIENT_NOT_ALLOWED', `Trial key can only send to allowed numbers: ${US}, ${DE}`] as const

  it('lets non-trial keys send anywhere', () => {
    assertTrialRecipient(tenant, '4930123456')
    assertTrialRecipient(master, '120363025246125244@g.us')
  })

  it('lets a trial key send to its allowed numbers, as digits, +number or user JID', () => {
    assertTrialRecipient(trial, US)
    assertTrialRecipient(trial, '+1 (415) 555-2671')
    assertTrialRecipient(trial, `${DE}@s.whatsapp.net`)
    assertTrialRecipient(trial, `${DE}:12@s.whatsapp.net`)
  })

  it('refuses other numbers, groups and LIDs, naming the allowed numbers comma-separated', async () => {
    await expectGatewayError(() => assertTrialRecipient(trial, '442071838750'), ...NOT_ALLOWED)
    await expectGatewayError(() => assertTrialRecipient(trial, '120363025246125244@g.us'), ...NOT_ALLOWED)
    await expectGatewayError(() => assertTrialRecipient(trial, '123456789012345@lid'), ...NOT_ALLOWED)
    await expectGatewayError(() => assertTrialRecipient(trial, 'nonsense'), ...NOT_ALLOWED)
  })

  it('carries status 403 and the session key inherits the restriction', async () => {
    const trialSession: Principal = { ...sessionKey, trial: { expiresAtMs: 1, allowedNumbers: [US] } }
    try {
      assertTrialRecipient(trialSession, DE)
      expect.fail('should throw')
    } catch (err) {
      expect((err as { status: number }).status).to.equal(403)
      expect((err as Error).message).to.equal(`Trial key can only send to allowed numbers: ${US}`)
    }
  })
})
