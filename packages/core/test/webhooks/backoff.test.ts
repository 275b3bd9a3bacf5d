import { expect } from 'chai'
import { retryCeilingMs, retryDelayMs } from '../../src/webhooks/index.js'

const base = { baseMs: 1000, maxMs: 3_600_000 }

describe('retryCeilingMs(attempts, baseMs, maxMs)', () => {
  it('doubles from baseMs and stops at maxMs', () => {
    const ceilings = [1, 2, 3, 4, 12, 13, 40, 5000].map((n) => retryCeilingMs(n, 1000, 3_600_000))
    expect(ceilings).to.deep.equal([1000, 2000, 4000, 8000, 2_048_000, 3_600_000, 3_600_000, 3_600_000])
  })
})

describe('retryDelayMs(attempts, options) (equal jitter)', () => {
  it('is half the ceiling when random() is 0', () => {
    expect([1, 2, 3, 20].map((n) => retryDelayMs(n, { ...base, random: () => 0 }))).to.deep.equal([500, 1000, 2000, 1_800_000])
  })

  it('stays below the ceiling when random() approaches 1', () => {
    expect([1, 2, 3, 20].map((n) => retryDelayMs(n, { ...base, random: () => 0.999999 }))).to.deep.equal([999, 1999, 3999, 3_599_998])
  })

  it('clamps a random source outside [0, 1)', () => {
    expect(retryDelayMs(1, { ...base, random: () => 1 })).to.equal(999)
    expect(retryDelayMs(1, { ...base, random: () => -3 })).to.equal(500)
  })

  it('keeps every delay within [ceiling/2, ceiling) for Math.random', () => {
    for (let n = 1; n <= 30; n++) {
      const ceiling = retryCeilingMs(n, 1000, 3_600_000)
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(n, base)
        expect(delay).to.be.at.least(ceiling / 2).and.below(ceiling)
      }
    }
  })

  it('never returns less than 1 ms', () => {
    expect(retryDelayMs(1, { baseMs: 1, maxMs: 1, random: () => 0 })).to.equal(1)
  })
})
