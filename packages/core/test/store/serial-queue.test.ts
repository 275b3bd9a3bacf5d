import { expect } from 'chai'
import { SerialQueue } from '../../src/store/serial-queue.js'

describe('SerialQueue', () => {
  it('runs tasks one at a time, in order, whatever their speed', async () => {
    const queue = new SerialQueue()
    const log: string[] = []
    const task = (name: string, ticks: number) => async () => {
      log.push(`start ${name}`)
      for (let i = 0; i < ticks; i++) await Promise.resolve()
      log.push(`end ${name}`)
      return name
    }
    const results = await Promise.all([
      queue.run(task('slow', 20)),
      queue.run(task('fast', 0)),
      queue.run(task('mid', 5)),
    ])
    expect(results).to.deep.equal(['slow', 'fast', 'mid'])
    expect(log).to.deep.equal(['start slow', 'end slow', 'start fast', 'end fast', 'start mid', 'end mid'])
  })

  it('goes on after a failed task, which rejects with its own error', async () => {
    const queue = new SerialQueue()
    const failed = queue.run(async () => {
      throw new Error('boom')
    })
    const next = queue.run(async () => 'ok')
    let caught: unknown
    await failed.catch((err: unknown) => (caught = err))
    expect((caught as Error).message).to.equal('boom')
    expect(await next).to.equal('ok')
  })
})
