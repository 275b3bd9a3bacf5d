import { expect } from 'chai'
import { createMemoryRateLimiter } from '../../src/rate-limit/limiter.js'
import { createTestClock, T0 } from '../../src/testing/test-clock.js'

const rule = { limit: 2, windowMs: 60_000 }

describe('createMemoryRateLimiter({ clock, maxBuckets? })', () => {
  it('counts per bucket key on the injected clock', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock })
    expect(await limiter.take('a', rule)).to.deep.equal({
      allowed: true,
      limit: 2,
      remaining: 1,
      resetAtMs: T0 + 60_000,
      retryAfterSec: 60,
    })
    expect((await limiter.take('a', rule)).remaining).to.equal(0)
    expect((await limiter.take('b', rule)).remaining).to.equal(1)
    await clock.tick(15_000)
    expect(await limiter.take('a', rule)).to.include({ allowed: false, retryAfterSec: 45 })
  })

  it('opens a new window once the old one has ended', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock })
    await limiter.take('a', rule)
    await limiter.take('a', rule)
    await clock.tick(60_000)
    expect(await limiter.take('a', rule)).to.include({ allowed: true, remaining: 1, resetAtMs: T0 + 120_000 })
  })

  it('peek() answers without taking', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock })
    expect(await limiter.peek('a', rule)).to.include({ allowed: true, remaining: 2 })
    await limiter.take('a', rule)
    expect(await limiter.peek('a', rule)).to.include({ allowed: true, remaining: 1 })
    expect(await limiter.peek('a', rule)).to.include({ allowed: true, remaining: 1 })
    expect(limiter.size).to.equal(1)
  })

  it('reset() forgets a bucket', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock })
    await limiter.take('a', rule)
    await limiter.take('a', rule)
    await limiter.reset('a')
    expect(limiter.size).to.equal(0)
    expect((await limiter.take('a', rule)).remaining).to.equal(1)
  })

  it('never holds more than maxBuckets, dropping the least recently used', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock, maxBuckets: 3 })
    for (let i = 0; i < 1000; i++) await limiter.take(`flood-${i}`, rule)
    expect(limiter.size).to.equal(3)

    const fresh = createMemoryRateLimiter({ clock, maxBuckets: 3 })
    await fresh.take('a', rule)
    await fresh.take('a', rule)
    await fresh.take('b', rule)
    await fresh.take('c', rule)
    await fresh.take('a', rule) // refused, but 'a' is now the most recent
    await fresh.take('d', rule) // evicts 'b', the least recently used
    expect(fresh.size).to.equal(3)
    expect((await fresh.peek('a', rule)).remaining).to.equal(0)
    expect((await fresh.peek('b', rule)).remaining).to.equal(2)
  })

  it('sweeps ended windows lazily, at most once per sweep interval', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock, sweepIntervalMs: 60_000 })
    for (let i = 0; i < 50; i++) await limiter.take(`k${i}`, { limit: 5, windowMs: 1000 })
    expect(limiter.size).to.equal(50)
    await clock.tick(30_000)
    await limiter.take('other', { limit: 5, windowMs: 120_000 })
    expect(limiter.size, 'before the sweep interval').to.equal(51)
    await clock.tick(30_000)
    await limiter.peek('x', rule)
    expect(limiter.size, 'ended windows swept').to.equal(1)
    expect((await limiter.peek('other', { limit: 5, windowMs: 120_000 })).remaining).to.equal(4)
  })

  it('arms no timers', async () => {
    const clock = createTestClock()
    const limiter = createMemoryRateLimiter({ clock })
    await limiter.take('a', rule)
    expect(clock.pendingTimers()).to.equal(0)
  })

  it('rejects a maxBuckets below 1', () => {
    expect(() => createMemoryRateLimiter({ clock: createTestClock(), maxBuckets: 0 })).to.throw(RangeError, 'maxBuckets')
  })
})
