import { expect } from 'chai'
import { ApiKeyService } from '../../src/api-keys/api-key-service.js'
import { hashKey } from '../../src/api-keys/hashing.js'
import { DAY_MS } from '../../src/api-keys/trial.js'
import { sequentialIds } from '../../src/kernel/ids.js'
import { silentLogger } from '../../src/kernel/logger.js'
import { createTestClock, T0 } from '../../src/testing/test-clock.js'
import { createMemoryStore } from '../support/memory-store.js'
import { DEFAULTS, expectGatewayError, makeService, MASTER_KEY, US, type Harness } from './helpers.js'

const REQUIRED = ['API_KEY_REQUIRED', 'API key required. Please provide an API key via X-API-Key header.'] as const
const INVALID = ['API_KEY_INVALID', 'Invalid API key'] as const
const DEACTIVATED = ['API_KEY_DEACTIVATED', 'API key is deactivated'] as const
const EXPIRED = ['TRIAL_EXPIRED', 'Trial period has expired'] as const

describe('apiKeys.authenticate(raw)', () => {
  let h: Harness
  beforeEach(async () => {
    h = await makeService()
  })
  afterEach(() => h.service.close())

  it('refuses a missing or blank key with API_KEY_REQUIRED (401)', async () => {
    await expectGatewayError(() => h.service.authenticate(undefined), ...REQUIRED)
    await expectGatewayError(() => h.service.authenticate(''), ...REQUIRED)
    await expectGatewayError(() => h.service.authenticate('   '), ...REQUIRED)
  })

  it('refuses unknown keys of any shape with API_KEY_INVALID', async () => {
    await expectGatewayError(() => h.service.authenticate('hello'), ...INVALID)
    await expectGatewayError(() => h.service.authenticate(`wamk_${'a'.repeat(43)}`), ...INVALID)
    await expectGatewayError(() => h.service.authenticate(`wask_${'a'.repeat(43)}`), ...INVALID)
  })

  it('knows the master key: kind master, admin, the configured defaults, unlimited sessions', () => {
    expect(h.service.authenticate(MASTER_KEY)).to.deep.equal({
      kind: 'master',
      keyId: 'master',
      isAdmin: true,
      accountKeyId: 'master',
      limits: { ...DEFAULTS, maxSessions: null },
    })
    expect(h.service.authenticate(`  ${MASTER_KEY} `).kind, 'surrounding spaces').to.equal('master')
    expect(h.service.masterPrincipal()).to.deep.equal(h.service.authenticate(MASTER_KEY))
  })

  it('refuses near misses of the master key (constant-time digest comparison)', async () => {
    const lastFlipped = MASTER_KEY.slice(0, -1) + (MASTER_KEY.endsWith('f') ? 'e' : 'f')
    await expectGatewayError(() => h.service.authenticate(lastFlipped), ...INVALID)
    await expectGatewayError(() => h.service.authenticate(MASTER_KEY.slice(0, -1)), ...INVALID)
    await expectGatewayError(() => h.service.authenticate(`${MASTER_KEY}0`), ...INVALID)
    await expectGatewayError(() => h.service.authenticate('wamk_'), ...INVALID)
    await expectGatewayError(() => h.service.authenticate(MASTER_KEY.toUpperCase()), ...INVALID)
  })

  it('accepts the master key given as its hash', async () => {
    const service = new ApiKeyService({
      store: createMemoryStore(),
      clock: createTestClock(),
      newId: sequentialIds(),
      logger: silentLogger,
      masterKeyHash: hashKey(MASTER_KEY),
      defaults: { general: 7, messages: 8, sessions: 9 },
    })
    await service.load()
    expect(service.authenticate(MASTER_KEY).limits).to.deep.equal({ general: 7, messages: 8, sessions: 9, maxSessions: null })
    await expectGatewayError(() => service.authenticate(`${MASTER_KEY}x`), ...INVALID)
  })

  it('refuses a malformed master key option', () => {
    const base = { store: createMemoryStore(), clock: createTestClock(), newId: sequentialIds(), logger: silentLogger, defaults: DEFAULTS }
    expect(() => new ApiKeyService({ ...base, masterKey: 'wamk_short' })).to.throw(TypeError, 'masterKey must be wamk_')
    expect(() => new ApiKeyService({ ...base, masterKey: `wask_${'a'.repeat(40)}` })).to.throw(TypeError)
    expect(() => new ApiKeyService({ ...base, masterKeyHash: 'abc' })).to.throw(TypeError, 'masterKeyHash')
  })

  it('must be loaded first', async () => {
    const service = new ApiKeyService({
      store: createMemoryStore(),
      clock: createTestClock(),
      newId: sequentialIds(),
      logger: silentLogger,
      masterKey: MASTER_KEY,
      defaults: DEFAULTS,
    })
    expect(() => service.authenticate(MASTER_KEY)).to.throw('load() must be called')
  })

  it('resolves a managed key to its own limits; isAdmin as created', async () => {
    const tenant = await h.service.create({ name: 'Tenant', type: 'premium', maxSessions: 3 })
    const admin = await h.service.create({ name: 'Ops', isAdmin: true })
    expect(h.service.authenticate(tenant.key)).to.deep.equal({
      kind: 'managed',
      keyId: tenant.apiKey.id,
      isAdmin: false,
      accountKeyId: tenant.apiKey.id,
      limits: { general: 500, messages: 100, sessions: 50, maxSessions: 3 },
    })
    expect(h.service.authenticate(admin.key)).to.include({ kind: 'managed', isAdmin: true })
  })

  it('refuses a deactivated key with API_KEY_DEACTIVATED (403) until reactivated', async () => {
    const { apiKey, key } = await h.service.create({ name: 'T' })
    await h.service.deactivate(apiKey.id)
    await expectGatewayError(() => h.service.authenticate(key), ...DEACTIVATED)
    await h.service.activate(apiKey.id)
    expect(h.service.authenticate(key).keyId).to.equal(apiKey.id)
  })

  it('refuses a deleted key with API_KEY_INVALID', async () => {
    const { apiKey, key } = await h.service.create({ name: 'T' })
    await h.service.delete(apiKey.id)
    await expectGatewayError(() => h.service.authenticate(key), ...INVALID)
  })

  it('accepts a trial key until its end and refuses it from the end instant on', async () => {
    const { apiKey, key } = await h.service.createTrial({ name: 'Trial', trialDays: 2, allowedNumbers: [US] })
    expect(h.service.authenticate(key).trial).to.deep.equal({ expiresAtMs: T0 + 2 * DAY_MS, allowedNumbers: [US] })
    await h.clock.tick(2 * DAY_MS - 1)
    expect(h.service.authenticate(key).keyId).to.equal(apiKey.id)
    await h.clock.tick(1)
    await expectGatewayError(() => h.service.authenticate(key), ...EXPIRED)
  })

  it('checks deactivation before trial expiry', async () => {
    const { apiKey, key } = await h.service.createTrial({ name: 'Trial', trialDays: 1, allowedNumbers: [US] })
    await h.service.deactivate(apiKey.id)
    await h.clock.tick(2 * DAY_MS)
    await expectGatewayError(() => h.service.authenticate(key), ...DEACTIVATED)
  })

  it('an extended trial works again after expiry', async () => {
    const { apiKey, key } = await h.service.createTrial({ name: 'Trial', trialDays: 1, allowedNumbers: [US] })
    await h.clock.tick(3 * DAY_MS)
    await expectGatewayError(() => h.service.authenticate(key), ...EXPIRED)
    await h.service.extendTrial(apiKey.id, 1)
    expect(h.service.authenticate(key).trial?.expiresAtMs).to.equal(T0 + 4 * DAY_MS)
  })

  it('sets lastUsedAt on success only', async () => {
    const { apiKey, key } = await h.service.create({ name: 'T' })
    expect(h.service.get(apiKey.id).lastUsedAtMs).to.equal(null)
    await h.clock.tick(5000)
    h.service.authenticate(key)
    expect(h.service.get(apiKey.id).lastUsedAtMs).to.equal(T0 + 5000)
    await h.service.deactivate(apiKey.id)
    await h.clock.tick(5000)
    await expectGatewayError(() => h.service.authenticate(key), ...DEACTIVATED)
    expect(h.service.get(apiKey.id).lastUsedAtMs).to.equal(T0 + 5000)
  })

  it('principalOf(accountKeyId) applies the same checks without a raw key', async () => {
    const { apiKey } = await h.service.createTrial({ name: 'Trial', trialDays: 1, allowedNumbers: [US] })
    expect(h.service.principalOf('master').kind).to.equal('master')
    expect(h.service.principalOf(apiKey.id)).to.include({ kind: 'managed', keyId: apiKey.id })
    await h.clock.tick(DAY_MS)
    await expectGatewayError(() => h.service.principalOf(apiKey.id), ...EXPIRED)
    await expectGatewayError(() => h.service.principalOf('gone'), ...INVALID)
  })

  it('offers the access helpers as methods', async () => {
    const tenant = h.service.authenticate((await h.service.create({ name: 'T' })).key)
    await expectGatewayError(() => h.service.assertAccess(tenant, 'admin'), 'ADMIN_KEY_REQUIRED', 'Admin API key required')
    const trial = h.service.authenticate((await h.service.createTrial({ name: 'Trial', trialDays: 1, allowedNumbers: [US] })).key)
    h.service.assertTrialRecipient(trial, `${US}@s.whatsapp.net`)
    await expectGatewayError(
      () => h.service.assertTrialRecipient(trial, '4930123456'),
      'TRIAL_RECIPIENT_NOT_ALLOWED',
      `Trial key can only send to allowed numbers: ${US}`,
    )
  })
})
