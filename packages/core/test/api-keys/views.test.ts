import { expect } from 'chai'
import type { ManagedApiKey } from '../../src/api-keys/records.js'
import { DAY_MS } from '../../src/api-keys/trial.js'
import {
  adminUsageView,
  apiKeyActionView,
  apiKeyDeletedView,
  apiKeyDetails,
  apiKeyListView,
  apiKeyView,
  createdApiKeyView,
  createdTrialKeyView,
  RAW_KEY_WARNING,
} from '../../src/api-keys/views.js'
import { T0 } from '../../src/testing/test-clock.js'
import { US } from './helpers.js'

const ISO = '2026-01-31T09:15:02.123Z'
const RAW = `wamk_${'x'.repeat(43)}`

function aKey(overrides: Partial<ManagedApiKey> = {}): ManagedApiKey {
  return {
    id: 'k1',
    name: 'Acme',
    type: 'standard',
    isAdmin: false,
    isActive: true,
    isTrial: false,
    trialExpiresAtMs: null,
    allowedNumbers: null,
    rateLimits: { general: 100, messages: 30, sessions: 10 },
    maxSessions: null,
    metadata: { plan: 'starter' },
    usage: { messagesSent: 3, sessionsCreated: 1 },
    createdAtMs: T0,
    lastUsedAtMs: null,
    ...overrides,
  }
}

const aTrial = (): ManagedApiKey =>
  aKey({
    type: 'trial',
    isTrial: true,
    trialExpiresAtMs: T0 + 7 * DAY_MS,
    allowedNumbers: [US],
    rateLimits: { general: 50, messages: 10, sessions: 2 },
    maxSessions: 1,
  })

describe('api-keys views', () => {
  it('createdApiKeyView: the spec creation body with the raw key and a warning', () => {
    expect(createdApiKeyView(aKey({ isAdmin: true, maxSessions: 5 }), RAW)).to.deep.equal({
      success: true,
      apiKey: {
        id: 'k1',
        key: RAW,
        name: 'Acme',
        type: 'standard',
        isAdmin: true,
        rateLimits: { general: 100, messages: 30, sessions: 10 },
        maxSessions: 5,
        createdAt: ISO,
      },
      warning: RAW_KEY_WARNING,
    })
  })

  it('createdTrialKeyView: apiKey with trial fields and trialInfo', () => {
    const view = createdTrialKeyView(aTrial(), RAW)
    expect(view.apiKey).to.deep.equal({
      id: 'k1',
      key: RAW,
      name: 'Acme',
      type: 'trial',
      isTrial: true,
      trialExpiresAt: '2026-02-07T09:15:02.123Z',
      allowedNumbers: [US],
      rateLimits: { general: 50, messages: 10, sessions: 2 },
      maxSessions: 1,
      createdAt: ISO,
    })
    expect(view.trialInfo.expiresAt).to.equal('2026-02-07T09:15:02.123Z')
    expect(view.trialInfo.allowedNumbers).to.deep.equal([US])
    expect(view.trialInfo.restrictions[0]).to.equal(`Messages can only be sent to: ${US}`)
    expect(view).to.include({ success: true, warning: RAW_KEY_WARNING })
  })

  it('createdTrialKeyView refuses a key that is not a trial key', () => {
    expect(() => createdTrialKeyView(aKey(), RAW)).to.throw(TypeError, 'not a trial key')
  })

  it('apiKeyDetails: every Managed API key field except the key, ISO times, null until used', () => {
    const details = apiKeyDetails(aKey())
    expect(details).to.deep.equal({
      id: 'k1',
      name: 'Acme',
      type: 'standard',
      isAdmin: false,
      isActive: true,
      isTrial: false,
      trialExpiresAt: null,
      allowedNumbers: null,
      rateLimits: { general: 100, messages: 30, sessions: 10 },
      maxSessions: null,
      metadata: { plan: 'starter' },
      usage: { messagesSent: 3, sessionsCreated: 1 },
      createdAt: ISO,
      lastUsedAt: null,
    })
    expect(details).to.not.have.property('key')
    expect(details).to.not.have.property('keyHash')
    expect(apiKeyDetails(aKey({ lastUsedAtMs: T0 + 1000 })).lastUsedAt).to.equal('2026-01-31T09:15:03.123Z')
    expect(apiKeyDetails(aTrial())).to.include({ trialExpiresAt: '2026-02-07T09:15:02.123Z', isTrial: true })
  })

  it('never shares objects with the key it describes', () => {
    const key = aKey()
    const details = apiKeyDetails(key)
    details.metadata['plan'] = 'changed'
    details.rateLimits.general = 1
    expect(key.metadata['plan']).to.equal('starter')
    expect(key.rateLimits.general).to.equal(100)
  })

  it('get, list, action and delete bodies', () => {
    expect(apiKeyView(aKey())).to.deep.equal({ success: true, apiKey: apiKeyDetails(aKey()) })
    expect(apiKeyListView([aKey(), aKey({ id: 'k2' })])).to.deep.include({ success: true, count: 2 })
    expect(apiKeyListView([]).apiKeys).to.deep.equal([])
    expect(apiKeyActionView('API key updated', aKey())).to.deep.equal({
      success: true,
      message: 'API key updated',
      apiKey: apiKeyDetails(aKey()),
    })
    expect(apiKeyDeletedView()).to.deep.equal({ success: true, message: 'API key deleted' })
  })

  it('adminUsageView: stats and per-key entries', () => {
    const keys = [
      aKey(),
      aKey({ id: 'k2', type: 'premium', isAdmin: true, usage: { messagesSent: 10, sessionsCreated: 2 }, lastUsedAtMs: T0 }),
      { ...aTrial(), id: 'k3', isActive: false },
      aKey({ id: 'k4', type: 'enterprise', usage: { messagesSent: 0, sessionsCreated: 0 } }),
    ]
    const view = adminUsageView(keys, { sessionsByKey: new Map([['k2', 4]]), totalSessions: 6 })
    expect(view.stats).to.deep.equal({
      totalKeys: 4,
      activeKeys: 3,
      trialKeys: 1,
      adminKeys: 1,
      totalSessions: 6,
      totalMessagesSent: 16,
      keysByType: { standard: 1, trial: 1, premium: 1, enterprise: 1 },
    })
    expect(view.keys[1]).to.deep.equal({
      id: 'k2',
      name: 'Acme',
      type: 'premium',
      isActive: true,
      sessionStats: { sessions: 4, messagesSent: 10 },
      lastUsedAt: ISO,
    })
    expect(view.keys[0]!.sessionStats.sessions).to.equal(0)
    const empty = adminUsageView([], { sessionsByKey: new Map(), totalSessions: 0 })
    expect(empty.stats.keysByType).to.deep.equal({ standard: 0, trial: 0, premium: 0 })
  })

  it('adminUsageView counts a type named __proto__ as an own property', () => {
    const view = adminUsageView([aKey({ type: '__proto__' })], { sessionsByKey: new Map(), totalSessions: 0 })
    expect(Object.getOwnPropertyNames(view.stats.keysByType)).to.include('__proto__')
    expect(Object.getPrototypeOf(view.stats.keysByType)).to.equal(Object.prototype)
  })
})
