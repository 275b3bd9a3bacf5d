import { expect } from 'chai'
import { API_KEYS_COLLECTION, type ApiKeyRecord } from '../../src/api-keys/records.js'
import { makeService, type Harness } from './helpers.js'

async function storedUsage(h: Harness, id: string): Promise<Pick<ApiKeyRecord, 'usage' | 'lastUsedAtMs'> | undefined> {
  const record = await h.store.collection<ApiKeyRecord>(API_KEYS_COLLECTION).get(id)
  return record && { usage: record.usage, lastUsedAtMs: record.lastUsedAtMs }
}

describe('apiKeys usage (write-behind)', () => {
  let h: Harness
  beforeEach(async () => {
    h = await makeService({ usageFlushIntervalMs: 10_000 })
  })
  afterEach(() => h.service.close())

  it('counts in memory at once', async () => {
    const { apiKey } = await h.service.create({ name: 'A' })
    h.service.recordMessageSent(apiKey.id)
    h.service.recordMessageSent(apiKey.id, 4)
    h.service.recordSessionCreated(apiKey.id)
    expect(h.service.get(apiKey.id).usage).to.deep.equal({ messagesSent: 5, sessionsCreated: 1 })
  })

  it('ignores the master key and unknown ids', () => {
    h.service.recordMessageSent('master')
    h.service.recordSessionCreated('gone')
    expect(h.clock.pendingTimers()).to.equal(0)
  })

  it('writes to the store at most once per interval, in one batch', async () => {
    const a = (await h.service.create({ name: 'A' })).apiKey.id
    const b = (await h.service.create({ name: 'B' })).apiKey.id
    for (let i = 0; i < 50; i++) h.service.recordMessageSent(a)
    h.service.recordSessionCreated(b)
    await h.clock.tick(9_999)
    expect(h.store.writes.batch).to.equal(0)
    expect((await storedUsage(h, a))!.usage.messagesSent).to.equal(0)
    await h.clock.tick(1)
    expect(h.store.writes.batch).to.equal(1)
    expect((await storedUsage(h, a))!.usage.messagesSent).to.equal(50)
    expect((await storedUsage(h, b))!.usage.sessionsCreated).to.equal(1)
    expect(h.clock.pendingTimers()).to.equal(0)
  })

  it('persists lastUsedAt from authentication the same way', async () => {
    const { apiKey, key } = await h.service.create({ name: 'A' })
    await h.clock.tick(500)
    for (let i = 0; i < 20; i++) h.service.authenticate(key)
    expect((await storedUsage(h, apiKey.id))!.lastUsedAtMs).to.equal(null)
    await h.clock.tick(10_000)
    expect((await storedUsage(h, apiKey.id))!.lastUsedAtMs).to.equal(h.clock.now() - 10_000)
    expect(h.store.writes.batch).to.equal(1)
  })

  it('flush() writes now; close() writes and leaves no timer behind', async () => {
    const { apiKey } = await h.service.create({ name: 'A' })
    h.service.recordMessageSent(apiKey.id)
    await h.service.flush()
    expect((await storedUsage(h, apiKey.id))!.usage.messagesSent).to.equal(1)
    h.service.recordMessageSent(apiKey.id)
    expect(h.clock.pendingTimers()).to.equal(1)
    await h.service.close()
    expect(h.clock.pendingTimers()).to.equal(0)
    expect((await storedUsage(h, apiKey.id))!.usage.messagesSent).to.equal(2)
    const restarted = await h.restart()
    expect(restarted.get(apiKey.id).usage.messagesSent).to.equal(2)
    await restarted.close()
  })

  it('keeps counts dirty after a failed write, logs it, and retries next interval', async () => {
    const { apiKey } = await h.service.create({ name: 'A' })
    h.service.recordMessageSent(apiKey.id)
    h.store.failNext()
    await h.clock.tick(10_000)
    expect(h.logger.lines.some((l) => l.level === 'warn' && l.msg === 'api key usage not saved; will retry')).to.equal(true)
    expect((await storedUsage(h, apiKey.id))!.usage.messagesSent).to.equal(0)
    await h.clock.tick(10_000)
    expect((await storedUsage(h, apiKey.id))!.usage.messagesSent).to.equal(1)
  })

  it('a pending usage write never brings a deleted key back', async () => {
    const { apiKey } = await h.service.create({ name: 'A' })
    h.service.recordMessageSent(apiKey.id)
    await h.service.delete(apiKey.id)
    await h.service.flush()
    expect(await storedUsage(h, apiKey.id)).to.equal(undefined)
  })

  it('a usage write queued before a delete does not survive it', async () => {
    const { apiKey } = await h.service.create({ name: 'A' })
    h.service.recordMessageSent(apiKey.id)
    const flushing = h.service.flush()
    const deleting = h.service.delete(apiKey.id)
    await Promise.all([flushing, deleting])
    expect(await storedUsage(h, apiKey.id)).to.equal(undefined)
  })

  it('admin changes keep counting usage made meanwhile', async () => {
    const { apiKey } = await h.service.create({ name: 'A' })
    const renaming = h.service.update(apiKey.id, { name: 'B' })
    h.service.recordMessageSent(apiKey.id)
    await renaming
    expect(h.service.get(apiKey.id)).to.deep.include({ name: 'B', usage: { messagesSent: 1, sessionsCreated: 0 } })
    await h.service.flush()
    expect((await storedUsage(h, apiKey.id))!.usage.messagesSent).to.equal(1)
  })
})
