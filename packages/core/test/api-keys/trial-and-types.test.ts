import { expect } from 'chai'
import { defaultsForType, PREMIUM_DEFAULTS, STANDARD_DEFAULTS, TRIAL_DEFAULTS } from '../../src/api-keys/key-types.js'
import { DAY_MS, extendedTrialExpiryMs, isTrialExpired, trialExpiryMs, trialRestrictions } from '../../src/api-keys/trial.js'
import { T0 } from '../../src/testing/test-clock.js'

describe('api-keys key types', () => {
  it('has the spec defaults: standard 100/30/10, premium 500/100/50, trial 50/10/2', () => {
    expect(defaultsForType('standard')).to.deep.equal({ rateLimits: { general: 100, messages: 30, sessions: 10 }, maxSessions: null })
    expect(defaultsForType('premium')).to.deep.equal({ rateLimits: { general: 500, messages: 100, sessions: 50 }, maxSessions: null })
    expect(defaultsForType('trial')).to.deep.equal({ rateLimits: { general: 50, messages: 10, sessions: 2 }, maxSessions: 1 })
  })

  it('gives unknown types (and prototype names) the standard defaults', () => {
    expect(defaultsForType('enterprise')).to.deep.equal(STANDARD_DEFAULTS)
    expect(defaultsForType('constructor')).to.deep.equal(STANDARD_DEFAULTS)
    expect(defaultsForType('__proto__')).to.deep.equal(STANDARD_DEFAULTS)
  })

  it('hands out copies', () => {
    defaultsForType('premium').rateLimits.general = 1
    expect(PREMIUM_DEFAULTS.rateLimits.general).to.equal(500)
    expect(TRIAL_DEFAULTS.maxSessions).to.equal(1)
  })
})

describe('api-keys trial rules', () => {
  it('ends a trial trialDays after its start', () => {
    expect(trialExpiryMs(T0, 7)).to.equal(T0 + 7 * DAY_MS)
  })

  it('extends from the current end while running, from now once expired', () => {
    expect(extendedTrialExpiryMs(T0 + DAY_MS, T0, 3)).to.equal(T0 + 4 * DAY_MS)
    expect(extendedTrialExpiryMs(T0 - DAY_MS, T0, 3)).to.equal(T0 + 3 * DAY_MS)
  })

  it('is expired from the end instant on', () => {
    expect(isTrialExpired(T0, T0 - 1)).to.equal(false)
    expect(isTrialExpired(T0, T0)).to.equal(true)
  })

  it('lists the restrictions of a trial', () => {
    expect(
      trialRestrictions({
        allowedNumbers: ['14155552671', '4915123456789'],
        rateLimits: { general: 50, messages: 10, sessions: 2 },
        maxSessions: 1,
        trialExpiresAtMs: T0,
      }),
    ).to.deep.equal([
      'Messages can only be sent to: 14155552671, 4915123456789',
      'At most 1 session at a time',
      'At most 10 messages per minute per session',
      'At most 50 requests per minute',
      'The key stops working at 2026-01-31T09:15:02.123Z unless the trial is extended',
    ])
    const several = { allowedNumbers: ['1'], rateLimits: { general: 1, messages: 1, sessions: 1 }, maxSessions: 3, trialExpiresAtMs: T0 }
    expect(trialRestrictions(several)[1]).to.equal('At most 3 sessions at a time')
  })
})
