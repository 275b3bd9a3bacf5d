import { expect } from 'chai'
import { hashKey } from '../../src/api-keys/hashing.js'
import { SESSION_KEYS_COLLECTION } from '../../src/api-keys/records.js'
import { DAY_MS } from '../../src/api-keys/trial.js'
import { DEFAULTS, expectGatewayError, makeService, US, type Harness } from './helpers.js'

const INVALID = ['API_KEY_INVALID', 'Invalid API key'] as const

describe('apiKeys session keys', () => {
  let h: Harness
  beforeEach(async () => {
    h = await makeService()
  })
  afterEach(() => h.service.close())

  it('issueSessionKey() returns a wask_ key that reaches its session under the account key limits', async () => {
    const { apiKey } = await h.service.create({ name: 'Tenant', type: 'premium', maxSessions: 2 })
    const raw = await h.service.issueSessionKey('s1', apiKey.id)
    expect(raw).to.match(/^wask_[A-Za-z0-9_-]{43}$/)
    expect(h.service.authenticate(raw)).to.deep.equal({
      kind: 'session',
      keyId: 'key-2',
      isAdmin: false,
      sessionId: 's1',
      accountKeyId: apiKey.id,
      limits: { general: 500, messages: 100, sessions: 50, maxSessions: 2 },
    })
  })

  it('a session key of the master key uses the configured defaults and is no admin', async () => {
    const raw = await h.service.issueSessionKey('s1', 'master')
    expect(h.service.authenticate(raw)).to.deep.include({
      kind: 'session',
      isAdmin: false,
      accountKeyId: 'master',
      limits: { ...DEFAULTS, maxSessions: null },
    })
  })

  it('stores only the hash, under <sessionId>:<id>, and survives a restart', async () => {
    const raw = await h.service.issueSessionKey('s1', 'master')
    const entries: [string, unknown][] = []
    for await (const entry of h.store.collection(SESSION_KEYS_COLLECTION).entries()) entries.push(entry)
    expect(entries).to.have.length(1)
    expect(entries[0]![0]).to.equal('s1:key-1')
    expect(entries[0]![1]).to.include({ keyHash: hashKey(raw), sessionId: 's1', accountKeyId: 'master' })
    expect(JSON.stringify(entries)).to.not.contain(raw)
    const restarted = await h.restart()
    expect(restarted.authenticate(raw).sessionId).to.equal('s1')
    await restarted.close()
  })

  it('revokeSessionKeys() cuts every key of the session off, in memory and in the store', async () => {
    const a = await h.service.issueSessionKey('s1', 'master')
    const b = await h.service.issueSessionKey('s1', 'master')
    const other = await h.service.issueSessionKey('s2', 'master')
    await h.service.revokeSessionKeys('s1')
    await expectGatewayError(() => h.service.authenticate(a), ...INVALID)
    await expectGatewayError(() => h.service.authenticate(b), ...INVALID)
    expect(h.service.authenticate(other).sessionId).to.equal('s2')
    const restarted = await h.restart()
    await expectGatewayError(() => restarted.authenticate(a), ...INVALID)
    expect(restarted.authenticate(other).sessionId).to.equal('s2')
    await restarted.close()
  })

  it('revocation takes effect before the store answers', async () => {
    const raw = await h.service.issueSessionKey('s1', 'master')
    const pending = h.service.revokeSessionKeys('s1')
    await expectGatewayError(() => h.service.authenticate(raw), ...INVALID)
    await pending
  })

  it('follows its account key: deactivated, expired trial, deleted', async () => {
    const { apiKey } = await h.service.createTrial({ name: 'T', trialDays: 1, allowedNumbers: [US] })
    const raw = await h.service.issueSessionKey('s1', apiKey.id)
    expect(h.service.authenticate(raw).trial).to.deep.equal({ expiresAtMs: h.clock.now() + DAY_MS, allowedNumbers: [US] })

    await h.service.deactivate(apiKey.id)
    await expectGatewayError(() => h.service.authenticate(raw), 'API_KEY_DEACTIVATED', 'API key is deactivated')
    await h.service.activate(apiKey.id)

    await h.clock.tick(DAY_MS)
    await expectGatewayError(() => h.service.authenticate(raw), 'TRIAL_EXPIRED', 'Trial period has expired')

    await h.service.delete(apiKey.id)
    await expectGatewayError(() => h.service.authenticate(raw), ...INVALID)
  })

  it('updates the account key lastUsedAt', async () => {
    const { apiKey } = await h.service.create({ name: 'T' })
    const raw = await h.service.issueSessionKey('s1', apiKey.id)
    await h.clock.tick(1234)
    h.service.authenticate(raw)
    expect(h.service.get(apiKey.id).lastUsedAtMs).to.equal(h.clock.now())
  })

  it('refuses to issue under an unknown account key, or for a malformed session id', async () => {
    await expectGatewayError(() => h.service.issueSessionKey('s1', 'gone'), ...INVALID)
    let err: unknown
    await h.service.issueSessionKey('a:b', 'master').catch((e: unknown) => (err = e))
    expect(err).to.be.instanceOf(TypeError)
  })
})
