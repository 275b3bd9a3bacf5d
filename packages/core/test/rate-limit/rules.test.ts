import { expect } from 'chai'
import { hasErrorCode } from '../../src/errors/index.js'
import type { Principal } from '../../src/operations/types.js'
import { createMemoryRateLimiter } from '../../src/rate-limit/limiter.js'
import {
  HOUR_MS,
  MINUTE_MS,
  anonymousBucket,
  assertAllowed,
  enforce,
  generalBucket,
  messagesBucket,
  rateLimitHeaders,
  sessionsBucket,
} from '../../src/rate-limit/rules.js'
import { createTestClock, T0 } from '../../src/testing/test-clock.js'

const limits = { general: 100, messages: 30, sessions: 10, maxSessions: null }
const managed: Principal = { kind: 'managed', keyId: 'k1', isAdmin: false, accountKeyId: 'k1', limits }
const sessionKey: Principal = { kind: 'session', keyId: 'sk1', isAdmin: false, sessionId: 's1', accountKeyId: 'k1', limits }

describe('rate-limit buckets', () => {
  it('general: per key per minute, a session key apart from its account key', () => {
    expect(generalBucket(managed)).to.deep.equal({ key: 'general:key:k1', rule: { limit: 100, windowMs: MINUTE_MS } })
    expect(generalBucket(sessionKey).key).to.equal('general:key:sk1')
  })

  it('general without a valid key: per client address', () => {
    expect(anonymousBucket('203.0.113.7', 100)).to.deep.equal({
      key: 'general:addr:203.0.113.7',
      rule: { limit: 100, windowMs: MINUTE_MS },
    })
  })

  it('messages: per session per minute, with a cost', () => {
    expect(messagesBucket('s1', limits)).to.deep.equal({ key: 'messages:s1', rule: { limit: 30, windowMs: MINUTE_MS, cost: 1 } })
    expect(messagesBucket('s1', limits, 5).rule.cost).to.equal(5)
  })

  it('sessions: per account key per hour', () => {
    expect(sessionsBucket('k1', limits)).to.deep.equal({ key: 'sessions:k1', rule: { limit: 10, windowMs: HOUR_MS } })
  })
})

describe('rateLimitHeaders(decision)', () => {
  it('gives limit, remaining and the reset in Unix seconds (rounded up)', () => {
    const resetAtMs = T0 + 60_000 // T0 has 123 ms
    expect(rateLimitHeaders({ allowed: true, limit: 100, remaining: 99, resetAtMs, retryAfterSec: 60 })).to.deep.equal({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '99',
      'X-RateLimit-Reset': String(Math.floor(resetAtMs / 1000) + 1),
    })
    const exact = rateLimitHeaders({ allowed: true, limit: 1, remaining: 0, resetAtMs: 5_000, retryAfterSec: 1 })
    expect(exact['X-RateLimit-Reset']).to.equal('5')
  })
})

describe('assertAllowed(decision) and enforce(limiter, bucket)', () => {
  it('throws RATE_LIMITED with the exact text and retryAfter', () => {
    try {
      assertAllowed({ allowed: false, limit: 1, remaining: 0, resetAtMs: 0, retryAfterSec: 42 })
      expect.fail('should throw')
    } catch (err) {
      expect(hasErrorCode(err, 'RATE_LIMITED')).to.equal(true)
      const e = err as { status: number; message: string; retryAfter: number; details: unknown }
      expect(e.status).to.equal(429)
      expect(e.message).to.equal('Rate limit exceeded. Please wait 42 seconds before trying again.')
      expect(e.retryAfter).to.equal(42)
      expect(e.details).to.deep.equal({ retryAfter: 42 })
    }
    expect(() => assertAllowed({ allowed: true, limit: 1, remaining: 0, resetAtMs: 0, retryAfterSec: 1 })).not.to.throw()
  })

  it('enforce() takes, and refuses past the limit with the seconds left in the window', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock })
    const bucket = sessionsBucket('k1', { sessions: 2 })
    expect((await enforce(limiter, bucket)).remaining).to.equal(1)
    await enforce(limiter, bucket)
    await clock.tick(20 * MINUTE_MS + 500)
    const err = await enforce(limiter, bucket).then(
      () => expect.fail('should refuse'),
      (e: unknown) => e,
    )
    expect(hasErrorCode(err, 'RATE_LIMITED')).to.equal(true)
    expect((err as { retryAfter: number }).retryAfter).to.equal(40 * 60)
    await clock.tick(40 * MINUTE_MS)
    expect((await enforce(limiter, bucket)).remaining).to.equal(1)
  })

  it('a session under one account key has its own messages bucket', async () => {
    const limiter = createMemoryRateLimiter({ clock: createTestClock() })
    await enforce(limiter, messagesBucket('s1', { messages: 1 }))
    await enforce(limiter, messagesBucket('s2', { messages: 1 }))
    const err = await enforce(limiter, messagesBucket('s1', { messages: 1 })).catch((e: unknown) => e)
    expect(hasErrorCode(err, 'RATE_LIMITED')).to.equal(true)
  })
})
