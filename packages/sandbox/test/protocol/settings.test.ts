import { expect } from 'chai'
import { startWireSandbox, type WireSandbox } from '../../src/doors/wire/wire-sandbox.js'
import { applyTrustAnchor, restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'
const jid = (p: string) => `${p}@s.whatsapp.net`

describe('protocol door: profile, blocks and app-state patches', function () {
  this.timeout(20_000)
  let w: WireSandbox
  let alice: TestClient

  beforeEach(async () => {
    w = await startWireSandbox()
    applyTrustAnchor(w.rootPublicKey)
    await w.sandbox.accounts.create({ phoneNumber: ALICE, name: 'Alice' })
    await w.sandbox.accounts.create({ phoneNumber: BOB, name: 'Bob', about: 'Busy' })
    alice = new TestClient(w.url)
    await w.sandbox.scan(ALICE, await alice.qr())
    await alice.opened()
    await alice.waitFor(() => alice.auth.creds.myAppStateKeyId, 'app-state key share')
  })

  afterEach(async () => {
    await alice.stop()
    await w.close()
    restoreTrustAnchor()
  })

  const received = (id: string) =>
    alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === id) return m
      return undefined
    }, `message ${id}`)

  it('the phone shares its app-state key; a name change is a patch the world applies', async () => {
    expect(alice.auth.creds.me?.name).to.equal('Alice')
    await alice.sock.updateProfileName('Alice B.')
    expect((await w.sandbox.accounts.get(ALICE)).name).to.equal('Alice B.')
    expect(alice.auth.creds.me?.name).to.equal('Alice B.')
  })

  it('about texts: set over its IQ, read over usync', async () => {
    await alice.sock.updateProfileStatus('On the wire')
    expect((await w.sandbox.accounts.get(ALICE)).about).to.equal('On the wire')
    const [bob] = (await alice.sock.fetchStatus(jid(BOB))) ?? []
    expect((bob?.status as { status: string }).status).to.equal('Busy')
  })

  it('archive and star are app-state patches the world applies', async () => {
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, text: 'keep this' })
    const m = await received(messageId)
    await alice.sock.chatModify({ archive: true, lastMessages: [{ key: m.key, messageTimestamp: m.messageTimestamp! }] }, jid(BOB))
    expect((await w.sandbox.chats(ALICE)).find((c) => c.id === jid(BOB))?.archived).to.equal(true)
    await alice.sock.star(jid(BOB), [{ id: messageId, fromMe: false }], true)
    expect((await w.sandbox.inbox(ALICE)).find((x) => x.id === messageId)?.starred).to.equal(true)
  })

  it('mark unread and delete chat are app-state patches too', async () => {
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, text: 'hi' })
    const m = await received(messageId)
    const last = [{ key: m.key, messageTimestamp: m.messageTimestamp! }]
    await alice.sock.chatModify({ markRead: false, lastMessages: last }, jid(BOB))
    expect((await w.sandbox.chats(ALICE)).find((c) => c.id === jid(BOB))?.unreadCount).to.be.greaterThan(0)
    await alice.sock.chatModify({ delete: true, lastMessages: last }, jid(BOB))
    expect((await w.sandbox.chats(ALICE)).some((c) => c.id === jid(BOB))).to.equal(false)
  })

  it('blocks: a blocked account no longer reaches the client', async () => {
    await alice.sock.onWhatsApp(BOB)
    await alice.sock.updateBlockStatus(jid(BOB), 'block')
    const { messageId } = await w.sandbox.sendAs(BOB, { to: ALICE, text: 'let me in' })
    expect((await w.sandbox.inbox(ALICE)).some((x) => x.id === messageId)).to.equal(false)
  })

  it('profile pictures: the world URL, or a 404 when there is none', async () => {
    await alice.sock.profilePictureUrl(jid(BOB), 'image').then(
      () => expect.fail('found a picture'),
      (err: { message: string; data?: unknown }) => expect([err.message, err.data]).to.deep.equal(['item-not-found', 404]),
    )
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)])
    await w.sandbox.accounts.update(BOB, { picture: { data: jpeg, mimetype: 'image/jpeg' } })
    expect(await alice.sock.profilePictureUrl(jid(BOB), 'image')).to.match(/^https?:\/\//)
  })
})
