import { expect } from 'chai'
import { createSandbox } from '../src/index.js'
import { COLLECTION_NAMES } from '../src/persistence/world-store.js'
import { MemoryStore } from './support/memory-store.js'
import { A, B, C, caught, jid, setup } from './support/setup.js'

describe('sandbox persistence', () => {
  it('a restart keeps accounts, links, groups and messages; a linked session restores without a scan', async () => {
    const t = await setup()
    await t.sandbox.accounts.update(A, { about: 'Persisted', picture: { data: Buffer.from([0xff, 0xd8, 0xff, 1]), mimetype: 'image/jpeg' } })
    await t.link('s1')
    const group = await t.driver.group('s1', { op: 'create', name: 'Kept', participants: [jid(B), jid(C)] })
    const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'document', media: { data: Buffer.from('PDF!'), mimetype: 'application/pdf', filename: 'a.pdf' } } })
    await t.sandbox.read(B, A, [sent.id])
    await t.restart()

    expect((await t.sandbox.accounts.list()).map((a) => [a.phoneNumber, a.about, a.sessions])).to.deep.equal([
      [A, 'Persisted', ['s1']],
      [B, null, []],
      [C, null, []],
    ])
    expect((await t.sandbox.groups(B)).map((g) => g.name)).to.deep.equal(['Kept'])
    expect((await t.sandbox.inbox(B))[0]).to.include({ id: sent.id, status: 'read', filename: 'a.pdf' })

    t.events.clear()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(200)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'connecting', 'open'])
    const media = await t.sandbox.as(B).message({ op: 'star', message: { id: sent.id, chatId: jid(A), fromMe: false }, star: true })
    expect(media).to.equal(undefined)
    expect((await t.driver.group('s1', { op: 'metadata', groupId: group.id })).name).to.equal('Kept')
    expect((await t.driver.profile('s1', { op: 'get' })).profilePicture).to.match(/^https:/)
  })

  it('messages for an offline session survive a restart and arrive on its next open, offline', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.close('s1')
    const { messageId } = await t.sandbox.sendAs(B, { to: A, text: 'while the service was down' })
    await t.restart()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(200)
    expect(t.events.of('message.received', 's1').map((e) => [e.message.id, e.message.offline])).to.deep.equal([[messageId, true]])
    await t.restart()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(200)
    expect(t.events.of('message.received', 's1')).to.have.length(1, 'delivered once')
  })

  it('media bytes come back as Buffers after a restart', async () => {
    const t = await setup()
    const { messageId } = await t.sandbox.sendAs(B, {
      to: A,
      content: { type: 'image', media: { data: Buffer.from([1, 2, 3]), mimetype: 'image/jpeg' } },
    })
    await t.restart()
    const media = await t.sandbox.as(A).message({ op: 'star', message: { id: messageId, chatId: jid(B), fromMe: false }, star: true })
    expect(media).to.equal(undefined)
    await t.link('s1')
    const bytes = await t.driver.downloadMedia('s1', { id: messageId, chatId: jid(B), fromMe: false })
    expect(Buffer.isBuffer(bytes.data)).to.equal(true)
    expect([...bytes.data]).to.deep.equal([1, 2, 3])
  })

  it('writes each kind of record to its own collection', async () => {
    const t = await setup()
    await t.link('s1')
    await t.sandbox.sendAs(B, { to: A, text: 'x' })
    await t.driver.chat('s1', { op: 'archive', chatId: jid(B), lastMessages: [] })
    await t.driver.group('s1', { op: 'create', name: 'G', participants: [] })
    for (const name of ['accounts', 'links', 'messages', 'groups', 'chats'] as const) {
      expect(t.store.dump(COLLECTION_NAMES[name]).size, name).to.be.greaterThan(0)
    }
    expect([...t.store.dump(COLLECTION_NAMES.chats).keys()]).to.deep.equal([`${A}:${jid(B)}`])
  })

  it('an operation fails when the store cannot write', async () => {
    const t = await setup()
    t.store.failWrites = new Error('disk full')
    expect((await caught(() => t.sandbox.accounts.create({ phoneNumber: '15550004444' }))).message).to.equal('disk full')
    t.store.failWrites = undefined
    await t.sandbox.accounts.create({ phoneNumber: '15550005555' })
    await t.restart()
    expect((await t.sandbox.accounts.list()).map((a) => a.phoneNumber)).to.include('15550005555')
  })

  it('refuses to work before load()', async () => {
    const sandbox = createSandbox({ store: new MemoryStore() })
    expect(() => sandbox.driver()).to.throw('The sandbox is not loaded: call `await sandbox.load()` first')
    await sandbox.close()
  })
})
