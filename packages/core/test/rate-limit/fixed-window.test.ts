import { expect } from 'chai'
import { isExpired, peek, take, type WindowState } from '../../src/rate-limit/fixed-window.js'

const T = 1_700_000_000_000
const rule = { limit: 3, windowMs: 60_000 }

describe('rate-limit take(state, nowMs, rule)', () => {
  it('opens a window at the first hit, resetting one window later', () => {
    const r = take(undefined, T, rule)
    expect(r.state).to.deep.equal({ startMs: T, count: 1 })
    expect(r).to.include({ allowed: true, limit: 3, remaining: 2, resetAtMs: T + 60_000, retryAfterSec: 60 })
  })

  it('counts down remaining within the window and refuses past the limit', () => {
    let state: WindowState | undefined
    const remaining: number[] = []
    for (let i = 0; i < 3; i++) {
      const r = take(state, T + i * 1000, rule)
      expect(r.allowed).to.equal(true)
      remaining.push(r.remaining)
      state = r.state
    }
    expect(remaining).to.deep.equal([2, 1, 0])
    const refused = take(state, T + 10_500, rule)
    expect(refused).to.include({ allowed: false, remaining: 0, resetAtMs: T + 60_000, retryAfterSec: 50 })
  })

  it('does not count a refusal (the state stays as it was)', () => {
    const full = { startMs: T, count: 3 }
    const refused = take(full, T + 1000, rule)
    expect(refused.state).to.deep.equal(full)
    expect(refused.state).to.equal(full)
  })

  it('rolls over to a fresh window exactly at the reset instant', () => {
    const full = { startMs: T, count: 3 }
    expect(take(full, T + 59_999, rule).allowed).to.equal(false)
    const next = take(full, T + 60_000, rule)
    expect(next).to.include({ allowed: true, remaining: 2, resetAtMs: T + 120_000 })
    expect(next.state).to.deep.equal({ startMs: T + 60_000, count: 1 })
  })

  it('starts the new window at the first hit after the old one, not at a fixed boundary', () => {
    const r = take({ startMs: T, count: 3 }, T + 95_000, rule)
    expect(r.resetAtMs).to.equal(T + 155_000)
  })

  it('rounds retryAfterSec up and never below 1', () => {
    const full = { startMs: T, count: 3 }
    expect(take(full, T + 58_001, rule).retryAfterSec).to.equal(2)
    expect(take(full, T + 59_000, rule).retryAfterSec).to.equal(1)
    expect(take(full, T + 59_999, rule).retryAfterSec).to.equal(1)
    expect(take(full, T, rule).retryAfterSec).to.equal(60)
  })

  it('honours cost: takes several units at once, all or nothing', () => {
    const r = take(undefined, T, { ...rule, cost: 2 })
    expect(r).to.include({ allowed: true, remaining: 1 })
    const refused = take(r.state, T + 1, { ...rule, cost: 2 })
    expect(refused).to.include({ allowed: false, remaining: 1 })
    expect(refused.state.count).to.equal(2)
    expect(take(r.state, T + 2, rule)).to.include({ allowed: true, remaining: 0 })
  })

  it('a limit of 0 refuses everything; a cost of 0 always passes', () => {
    expect(take(undefined, T, { limit: 0, windowMs: 1000 })).to.include({ allowed: false, remaining: 0, retryAfterSec: 1 })
    expect(take({ startMs: T, count: 3 }, T, { ...rule, cost: 0 })).to.include({ allowed: true, remaining: 0 })
  })

  it('rejects malformed rules as programming errors', () => {
    expect(() => take(undefined, T, { limit: -1, windowMs: 1000 })).to.throw(RangeError, 'non-negative integer')
    expect(() => take(undefined, T, { limit: 1.5, windowMs: 1000 })).to.throw(RangeError)
    expect(() => take(undefined, T, { limit: 1, windowMs: 0 })).to.throw(RangeError, 'window must be positive')
    expect(() => take(undefined, T, { limit: 1, windowMs: 1000, cost: -1 })).to.throw(RangeError, 'cost')
  })
})

describe('rate-limit peek(state, nowMs, rule)', () => {
  it('answers without taking', () => {
    expect(peek(undefined, T, rule)).to.deep.equal({ allowed: true, limit: 3, remaining: 3, resetAtMs: T + 60_000, retryAfterSec: 60 })
    expect(peek({ startMs: T, count: 2 }, T + 30_000, rule)).to.include({ allowed: true, remaining: 1, retryAfterSec: 30 })
    expect(peek({ startMs: T, count: 3 }, T + 30_000, rule)).to.include({ allowed: false, remaining: 0 })
    expect(peek({ startMs: T, count: 2 }, T, { ...rule, cost: 2 }).allowed).to.equal(false)
  })

  it('sees an ended window as fresh', () => {
    expect(peek({ startMs: T, count: 3 }, T + 60_000, rule)).to.include({ allowed: true, remaining: 3, resetAtMs: T + 120_000 })
  })
})

describe('rate-limit isExpired(state, nowMs, windowMs)', () => {
  it('is true from the reset instant on', () => {
    expect(isExpired({ startMs: T, count: 1 }, T + 59_999, 60_000)).to.equal(false)
    expect(isExpired({ startMs: T, count: 1 }, T + 60_000, 60_000)).to.equal(true)
  })
})
