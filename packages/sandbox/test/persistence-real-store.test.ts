/**
 * The world over core's real store (`openStore`), where values go through the store's codec:
 * runs once core exports `openStore`, and is skipped with the reason until then.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import * as core from '@switchboard/core'
import type { Store } from '@switchboard/core'
import { A, B, jid, setup } from './support/setup.js'

const openStore = (core as unknown as { openStore?: (uri: string) => Promise<Store> }).openStore

describe('sandbox persistence over openStore()', () => {
  let dir: string

  beforeEach(function () {
    if (!openStore) {
      this.test!.title += ' (skipped: @switchboard/core does not export openStore yet)'
      this.skip()
    }
    dir = mkdtempSync(join(tmpdir(), 'sandbox-store-'))
  })

  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('keeps links, messages and media bytes across a restart on SQLite', async function () {
    this.timeout(10_000)
    const uri = `sqlite://${join(dir, 'world.db')}`
    const first = await openStore!(uri)
    const t = await setup({ store: first as never })
    await t.link('s1')
    const { messageId } = await t.sandbox.sendAs(B, {
      to: A,
      content: { type: 'image', media: { data: Buffer.from([9, 8, 7]), mimetype: 'image/jpeg' }, caption: 'c' },
    })
    await t.driver.close('s1')
    await t.sandbox.sendAs(B, { to: A, text: 'queued' })
    await t.sandbox.close()
    await first.close()

    const second = await openStore!(uri)
    const { createSandbox } = await import('../src/index.js')
    const sandbox = createSandbox({ store: second, clock: t.clock })
    await sandbox.load()
    const driver = sandbox.driver()
    const received: string[] = []
    driver.on('message.received', (e) => received.push(e.message.body))
    await driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(200)
    expect(received).to.deep.equal(['queued'])
    const media = await driver.downloadMedia('s1', { id: messageId, chatId: jid(B), fromMe: false })
    expect([...media.data]).to.deep.equal([9, 8, 7])
    await sandbox.close()
    await second.close()
  })
})
