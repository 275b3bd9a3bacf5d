import { expect } from 'chai'
import { WriteBehind } from '../../src/api-keys/write-behind.js'
import { createTestClock } from '../../src/testing/test-clock.js'

function setup(fail = 0) {
  const clock = createTestClock()
  const writes: string[][] = []
  const errors: unknown[] = []
  let failures = fail
  const wb = new WriteBehind({
    clock,
    intervalMs: 1000,
    write: async (ids) => {
      if (failures > 0) {
        failures--
        throw new Error('down')
      }
      writes.push([...ids].sort())
    },
    onError: (err) => errors.push(err),
  })
  return { clock, writes, errors, wb }
}

describe('WriteBehind', () => {
  it('writes dirty ids once per interval, grouped', async () => {
    const { clock, writes, wb } = setup()
    wb.mark('a')
    wb.mark('b')
    wb.mark('a')
    expect(wb.pending).to.equal(2)
    expect(clock.pendingTimers()).to.equal(1)
    await clock.tick(999)
    expect(writes).to.deep.equal([])
    await clock.tick(1)
    expect(writes).to.deep.equal([['a', 'b']])
    expect(wb.pending).to.equal(0)
    expect(clock.pendingTimers()).to.equal(0)
  })

  it('arms nothing while nothing is dirty', async () => {
    const { clock, writes } = setup()
    await clock.tick(10_000)
    expect(writes).to.deep.equal([])
    expect(clock.pendingTimers()).to.equal(0)
  })

  it('flush() writes at once and disarms the timer', async () => {
    const { clock, writes, wb } = setup()
    wb.mark('a')
    await wb.flush()
    expect(writes).to.deep.equal([['a']])
    expect(clock.pendingTimers()).to.equal(0)
    await wb.flush()
    expect(writes).to.have.length(1)
  })

  it('a failed timed write is reported, kept dirty and retried', async () => {
    const { clock, writes, errors, wb } = setup(1)
    wb.mark('a')
    await clock.tick(1000)
    expect(errors).to.have.length(1)
    expect(wb.pending).to.equal(1)
    await clock.tick(1000)
    expect(writes).to.deep.equal([['a']])
  })

  it('flush() rethrows a failed write and keeps the ids', async () => {
    const { wb } = setup(1)
    wb.mark('a')
    let caught: unknown
    await wb.flush().catch((e: unknown) => (caught = e))
    expect((caught as Error).message).to.equal('down')
    expect(wb.pending).to.equal(1)
  })

  it('close() writes and stops arming timers', async () => {
    const { clock, writes, wb } = setup()
    wb.mark('a')
    await wb.close()
    expect(writes).to.deep.equal([['a']])
    wb.mark('b')
    expect(clock.pendingTimers()).to.equal(0)
    await wb.flush()
    expect(writes).to.deep.equal([['a'], ['b']])
  })
})
