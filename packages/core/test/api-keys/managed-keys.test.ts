import { expect } from 'chai'
import { API_KEYS_COLLECTION } from '../../src/api-keys/records.js'
import { hashKey } from '../../src/api-keys/hashing.js'
import { DAY_MS } from '../../src/api-keys/trial.js'
import { T0 } from '../../src/testing/test-clock.js'
import { DE, expectGatewayError, makeService, US, type Harness } from './helpers.js'

const NOT_FOUND = ['API_KEY_NOT_FOUND', 'API key not found'] as const
const NOT_TRIAL = ['VALIDATION_FAILED', 'API key is not a trial key'] as const

async function stored(h: Harness): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = []
  for await (const [, value] of h.store.collection<Record<string, unknown>>(API_KEYS_COLLECTION).entries()) out.push(value)
  return out
}

describe('apiKeys managed keys', () => {
  let h: Harness
  beforeEach(async () => {
    h = await makeService()
  })
  afterEach(() => h.service.close())

  describe('create(input)', () => {
    it('makes a standard key by default and returns the raw key once', async () => {
      const { apiKey, key } = await h.service.create({ name: 'Acme' })
      expect(key).to.match(/^wamk_[A-Za-z0-9_-]{43}$/)
      expect(apiKey).to.deep.equal({
        id: 'key-1',
        name: 'Acme',
        type: 'standard',
        isAdmin: false,
        isActive: true,
        isTrial: false,
        trialExpiresAtMs: null,
        allowedNumbers: null,
        rateLimits: { general: 100, messages: 30, sessions: 10 },
        maxSessions: null,
        metadata: {},
        usage: { messagesSent: 0, sessionsCreated: 0 },
        createdAtMs: T0,
        lastUsedAtMs: null,
      })
    })

    it('applies the type defaults, unknown types getting the standard ones', async () => {
      const premium = (await h.service.create({ name: 'P', type: 'premium' })).apiKey
      expect(premium.rateLimits).to.deep.equal({ general: 500, messages: 100, sessions: 50 })
      const other = (await h.service.create({ name: 'E', type: 'Enterprise' })).apiKey
      expect(other.type).to.equal('enterprise')
      expect(other.rateLimits).to.deep.equal({ general: 100, messages: 30, sessions: 10 })
    })

    it('takes custom limits, maxSessions, isAdmin and metadata', async () => {
      const { apiKey } = await h.service.create({
        name: 'C',
        type: 'premium',
        isAdmin: true,
        rateLimitGeneral: 7,
        rateLimitSessions: 2,
        maxSessions: 4,
        metadata: { customer: 42 },
      })
      expect(apiKey).to.deep.include({
        isAdmin: true,
        rateLimits: { general: 7, messages: 100, sessions: 2 },
        maxSessions: 4,
        metadata: { customer: 42 },
      })
    })

    it('stores only the SHA-256 hash of the key', async () => {
      const { key } = await h.service.create({ name: 'Acme' })
      const [record] = await stored(h)
      expect(record).to.include({ keyHash: hashKey(key) })
      expect(JSON.stringify(record)).to.not.contain(key)
      expect(h.service.get('key-1')).to.not.have.property('keyHash')
    })

    it('validates through parseInput (texts name the field)', async () => {
      await expectGatewayError(() => h.service.create({ name: '' }), 'VALIDATION_FAILED', 'name must not be empty')
      await expectGatewayError(
        () => h.service.create({ name: 'x', type: 'trial' }),
        'VALIDATION_FAILED',
        'type trial is only available through POST /admin/api-keys/trial',
      )
      expect(h.store.writes.set).to.equal(0)
    })
  })

  describe('createTrial(input)', () => {
    it('makes a trial key: normalized unique numbers, expiry, trial defaults', async () => {
      const { apiKey, key } = await h.service.createTrial({
        name: 'Try',
        trialDays: 7,
        allowedNumbers: ['+1 415-555-2671', US, `+${DE}`],
      })
      expect(key).to.match(/^wamk_/)
      expect(apiKey).to.deep.include({
        type: 'trial',
        isTrial: true,
        isAdmin: false,
        trialExpiresAtMs: T0 + 7 * DAY_MS,
        allowedNumbers: [US, DE],
        rateLimits: { general: 50, messages: 10, sessions: 2 },
        maxSessions: 1,
      })
    })

    it('takes rateLimitMessages and maxSessions', async () => {
      const input = { name: 'T', trialDays: 1, allowedNumbers: [US], rateLimitMessages: 3, maxSessions: 2 }
      const { apiKey } = await h.service.createTrial(input)
      expect(apiKey.rateLimits.messages).to.equal(3)
      expect(apiKey.maxSessions).to.equal(2)
    })

    it('refuses an invalid number with Invalid phone number format', async () => {
      await expectGatewayError(
        () => h.service.createTrial({ name: 'T', trialDays: 1, allowedNumbers: [US, '12'] }),
        'INVALID_PHONE_NUMBER',
        'Invalid phone number format',
      )
      await expectGatewayError(
        () => h.service.createTrial({ name: 'T', trialDays: 1, allowedNumbers: [] }),
        'VALIDATION_FAILED',
        'allowedNumbers must have at least 1 item',
      )
    })
  })

  describe('list(input) and get(id)', () => {
    beforeEach(async () => {
      await h.service.create({ name: 'A' })
      await h.clock.tick(1)
      await h.service.create({ name: 'B', type: 'premium' })
      await h.clock.tick(1)
      await h.service.createTrial({ name: 'C', trialDays: 1, allowedNumbers: [US] })
      await h.service.deactivate('key-1')
    })

    it('lists active keys oldest first, or all with includeInactive', () => {
      expect(h.service.list().map((k) => k.name)).to.deep.equal(['B', 'C'])
      expect(h.service.list({ includeInactive: true }).map((k) => k.name)).to.deep.equal(['A', 'B', 'C'])
      expect(h.service.list({ includeInactive: 'true' }).map((k) => k.name)).to.deep.equal(['A', 'B', 'C'])
    })

    it('filters by type', () => {
      expect(h.service.list({ type: 'trial' }).map((k) => k.name)).to.deep.equal(['C'])
      expect(h.service.list({ type: 'standard' })).to.deep.equal([])
      expect(h.service.list({ type: 'standard', includeInactive: true }).map((k) => k.name)).to.deep.equal(['A'])
    })

    it('get() answers a copy, API_KEY_NOT_FOUND when unknown', async () => {
      const key = h.service.get('key-2')
      key.rateLimits.general = 1
      expect(h.service.get('key-2').rateLimits.general).to.equal(500)
      await expectGatewayError(() => h.service.get('nope'), ...NOT_FOUND)
    })
  })

  describe('update, setRateLimits, activate, deactivate', () => {
    it('update() changes the given fields only, and stores them', async () => {
      const { apiKey } = await h.service.create({ name: 'A', maxSessions: 2, metadata: { a: 1 } })
      const updated = await h.service.update(apiKey.id, { name: 'B', rateLimitMessages: 5, maxSessions: null })
      expect(updated).to.deep.include({
        name: 'B',
        rateLimits: { general: 100, messages: 5, sessions: 10 },
        maxSessions: null,
        metadata: { a: 1 },
      })
      expect((await h.service.update(apiKey.id, { metadata: { b: 2 } })).metadata).to.deep.equal({ b: 2 })
      const restarted = await h.restart()
      expect(restarted.get(apiKey.id)).to.deep.include({ name: 'B', maxSessions: null, metadata: { b: 2 } })
      await restarted.close()
    })

    it('setRateLimits() changes the given limits', async () => {
      const { apiKey } = await h.service.create({ name: 'A' })
      const updated = await h.service.setRateLimits(apiKey.id, { general: 1, sessions: 2 })
      expect(updated.rateLimits).to.deep.equal({ general: 1, messages: 30, sessions: 2 })
      await expectGatewayError(
        () => h.service.setRateLimits(apiKey.id, {}),
        'VALIDATION_FAILED',
        'body must contain at least one of: general, messages, sessions',
      )
    })

    it('changes take effect on the next authentication', async () => {
      const { apiKey, key } = await h.service.create({ name: 'A' })
      await h.service.setRateLimits(apiKey.id, { messages: 3 })
      expect(h.service.authenticate(key).limits.messages).to.equal(3)
    })

    it('deactivate() and activate() flip isActive, idempotently', async () => {
      const { apiKey } = await h.service.create({ name: 'A' })
      expect((await h.service.deactivate(apiKey.id)).isActive).to.equal(false)
      expect((await h.service.deactivate(apiKey.id)).isActive).to.equal(false)
      expect((await h.service.activate(apiKey.id)).isActive).to.equal(true)
    })

    it('answers API_KEY_NOT_FOUND for unknown ids', async () => {
      await expectGatewayError(() => h.service.update('nope', { name: 'x' }), ...NOT_FOUND)
      await expectGatewayError(() => h.service.setRateLimits('nope', { general: 1 }), ...NOT_FOUND)
      await expectGatewayError(() => h.service.activate('nope'), ...NOT_FOUND)
      await expectGatewayError(() => h.service.deactivate('nope'), ...NOT_FOUND)
      await expectGatewayError(() => h.service.delete('nope'), ...NOT_FOUND)
      await expectGatewayError(() => h.service.extendTrial('nope', 1), ...NOT_FOUND)
      await expectGatewayError(() => h.service.convertToPaid('nope', { type: 'premium' }), ...NOT_FOUND)
    })

    it('a refused store write leaves memory unchanged', async () => {
      const { apiKey, key } = await h.service.create({ name: 'A' })
      h.store.failNext()
      const err = await h.service.deactivate(apiKey.id).catch((e: unknown) => e)
      expect((err as Error).message).to.equal('store set failed')
      expect(h.service.get(apiKey.id).isActive).to.equal(true)
      expect(h.service.authenticate(key).keyId).to.equal(apiKey.id)
    })
  })

  describe('delete(id)', () => {
    it('removes the key for good and names the sessions created with it', async () => {
      const { apiKey, key } = await h.service.create({ name: 'A' })
      await h.service.issueSessionKey('s1', apiKey.id)
      await h.service.issueSessionKey('s2', apiKey.id)
      await h.service.issueSessionKey('s3', 'master')
      const events: unknown[] = []
      h.service.on('apiKey.deleted', (e) => {
        events.push(e)
      })
      expect(await h.service.delete(apiKey.id)).to.deep.equal({ keyId: apiKey.id, sessionIds: ['s1', 's2'] })
      expect(events).to.deep.equal([{ keyId: apiKey.id, sessionIds: ['s1', 's2'] }])
      await expectGatewayError(() => h.service.get(apiKey.id), ...NOT_FOUND)
      await expectGatewayError(() => h.service.authenticate(key), 'API_KEY_INVALID', 'Invalid API key')
      expect(await stored(h)).to.deep.equal([])
      await expectGatewayError(() => h.service.delete(apiKey.id), ...NOT_FOUND)
    })

    it('keeps the key when the store refuses the delete (so it can be retried)', async () => {
      const { apiKey, key } = await h.service.create({ name: 'A' })
      h.store.failNext()
      await h.service.delete(apiKey.id).catch(() => undefined)
      expect(h.service.authenticate(key).keyId).to.equal(apiKey.id)
      await h.service.delete(apiKey.id)
      await expectGatewayError(() => h.service.get(apiKey.id), ...NOT_FOUND)
    })
  })

  describe('extendTrial(id, days)', () => {
    it('extends a running trial from its current end', async () => {
      const { apiKey } = await h.service.createTrial({ name: 'T', trialDays: 7, allowedNumbers: [US] })
      await h.clock.tick(DAY_MS)
      expect((await h.service.extendTrial(apiKey.id, 3)).trialExpiresAtMs).to.equal(T0 + 10 * DAY_MS)
    })

    it('extends an expired trial from now', async () => {
      const { apiKey } = await h.service.createTrial({ name: 'T', trialDays: 1, allowedNumbers: [US] })
      await h.clock.tick(5 * DAY_MS)
      expect((await h.service.extendTrial(apiKey.id, 2)).trialExpiresAtMs).to.equal(T0 + 7 * DAY_MS)
    })

    it('refuses a non-trial key and a bad number of days with 400', async () => {
      const { apiKey } = await h.service.create({ name: 'A' })
      await expectGatewayError(() => h.service.extendTrial(apiKey.id, 3), ...NOT_TRIAL)
      await expectGatewayError(() => h.service.extendTrial(apiKey.id, 0), 'VALIDATION_FAILED', 'days must be at least 1')
    })
  })

  describe('convertToPaid(id, input)', () => {
    it('turns a trial key into a paid key: trial fields cleared, type defaults for unset limits', async () => {
      const { apiKey, key } = await h.service.createTrial({ name: 'T', trialDays: 1, allowedNumbers: [US] })
      const paid = await h.service.convertToPaid(apiKey.id, { type: 'premium', rateLimitMessages: 60 })
      expect(paid).to.deep.include({
        type: 'premium',
        isTrial: false,
        trialExpiresAtMs: null,
        allowedNumbers: null,
        rateLimits: { general: 500, messages: 60, sessions: 50 },
        maxSessions: null,
      })
      await h.clock.tick(10 * DAY_MS)
      const principal = h.service.authenticate(key)
      expect(principal).to.not.have.property('trial')
      h.service.assertTrialRecipient(principal, DE)
    })

    it('takes maxSessions and custom limits', async () => {
      const { apiKey } = await h.service.createTrial({ name: 'T', trialDays: 1, allowedNumbers: [US] })
      expect(await h.service.convertToPaid(apiKey.id, { type: 'standard', rateLimitGeneral: 9, maxSessions: 5 })).to.deep.include({
        rateLimits: { general: 9, messages: 30, sessions: 10 },
        maxSessions: 5,
      })
    })

    it('refuses a non-trial key and a trial type with 400', async () => {
      const { apiKey } = await h.service.create({ name: 'A' })
      await expectGatewayError(() => h.service.convertToPaid(apiKey.id, { type: 'premium' }), ...NOT_TRIAL)
      await expectGatewayError(
        () => h.service.convertToPaid(apiKey.id, { type: 'trial' }),
        'VALIDATION_FAILED',
        'type trial is only available through POST /admin/api-keys/trial',
      )
    })
  })

  it('keeps every key across a restart', async () => {
    const standard = await h.service.create({ name: 'A' })
    const trial = await h.service.createTrial({ name: 'T', trialDays: 2, allowedNumbers: [US] })
    const restarted = await h.restart()
    expect(restarted.list().map((k) => k.id)).to.deep.equal([standard.apiKey.id, trial.apiKey.id])
    expect(restarted.authenticate(standard.key).keyId).to.equal(standard.apiKey.id)
    expect(restarted.authenticate(trial.key).trial?.allowedNumbers).to.deep.equal([US])
    await restarted.close()
  })

  it('logs creations and deletions without secrets', async () => {
    const { apiKey, key } = await h.service.create({ name: 'A' })
    await h.service.delete(apiKey.id)
    const text = JSON.stringify(h.logger.lines)
    expect(text).to.contain('api key created').and.to.contain('api key deleted')
    expect(text).to.not.contain(key)
    expect(text).to.not.contain(hashKey(key))
  })
})
