import { expect } from 'chai'
import { startWireSandbox, type WireSandbox } from '../../src/doors/wire/wire-sandbox.js'
import { applyTrustAnchor, restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'
const CAROL = '15550003333'
const jid = (p: string) => `${p}@s.whatsapp.net`

describe('protocol door: groups (sender keys)', function () {
  this.timeout(20_000)
  let w: WireSandbox
  const clients: TestClient[] = []

  beforeEach(async () => {
    w = await startWireSandbox()
    applyTrustAnchor(w.rootPublicKey)
    for (const [phoneNumber, name] of [[ALICE, 'Alice'], [BOB, 'Bob'], [CAROL, 'Carol']] as const) {
      await w.sandbox.accounts.create({ phoneNumber, name })
    }
  })

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop()
    await w.close()
    restoreTrustAnchor()
  })

  const link = async (phone: string): Promise<TestClient> => {
    const client = new TestClient(w.url)
    clients.push(client)
    await w.sandbox.scan(phone, await client.qr())
    await client.opened()
    return client
  }

  const upsert = (c: TestClient, pick: (text: string | undefined, key: { remoteJid?: string | null; participant?: string | null }) => boolean) =>
    c.waitFor((ev) => {
      for (const e of ev) {
        if (e.event !== 'messages.upsert') continue
        for (const m of e.data.messages) {
          const text = m.message?.conversation ?? m.message?.extendedTextMessage?.text ?? undefined
          if (pick(text, m.key)) return m
        }
      }
      return undefined
    }, 'group message')

  it('a client creates a group, sends to it, and reads what members send', async () => {
    const alice = await link(ALICE)
    const group = await alice.sock.groupCreate('Team', [jid(BOB), jid(CAROL)])
    expect(group.subject).to.equal('Team')
    expect(group.participants.map((p) => [p.id, p.admin]).sort()).to.deep.equal([
      [jid(ALICE), 'superadmin'],
      [jid(BOB), null],
      [jid(CAROL), null],
    ])
    const sent = await alice.sock.sendMessage(group.id, { text: 'hello team' })
    for (const member of [BOB, CAROL]) {
      const inbox = await waitUntil(async () => (await w.sandbox.inbox(member)).find((m) => m.id === sent!.key.id))
      expect(inbox).to.include({ chatId: group.id, text: 'hello team', from: jid(ALICE) })
    }
    await w.sandbox.sendAs(BOB, { to: group.id, text: 'hi from bob' })
    await w.sandbox.sendAs(CAROL, { to: group.id, text: 'hi from carol' })
    await w.sandbox.sendAs(BOB, { to: group.id, text: 'bob again' })
    const fromBob = await upsert(alice, (t) => t === 'bob again')
    expect(fromBob.key.remoteJid).to.equal(group.id)
    expect(fromBob.key.participant).to.equal(jid(BOB))
    await upsert(alice, (t) => t === 'hi from carol')
  })

  it('two clients talk in a group and 1:1 through the world', async () => {
    const alice = await link(ALICE)
    const bob = await link(BOB)
    const group = await alice.sock.groupCreate('Pair', [jid(BOB)])
    await alice.sock.sendMessage(group.id, { text: 'group hello' })
    await upsert(bob, (t, key) => t === 'group hello' && key.remoteJid === group.id)
    await bob.sock.sendMessage(group.id, { text: 'group answer' })
    await upsert(alice, (t, key) => t === 'group answer' && key.participant === jid(BOB))
    await bob.sock.sendMessage(jid(ALICE), { text: 'direct' })
    const direct = await upsert(alice, (t) => t === 'direct')
    expect(direct.key.remoteJid).to.equal(jid(BOB))
  })

  it('invite links, their revocation, and leaving', async () => {
    const alice = await link(ALICE)
    const group = await alice.sock.groupCreate('Links', [jid(BOB)])
    const code = await alice.sock.groupInviteCode(group.id)
    expect(code).to.be.a('string').and.have.length.greaterThan(10)
    const fresh = await alice.sock.groupRevokeInvite(group.id)
    expect(fresh).to.be.a('string').and.not.equal(code)
    await alice.sock.groupLeave(group.id)
    expect((await w.sandbox.groups(ALICE)).some((g) => g.id === group.id)).to.equal(false)
    await alice.sock.groupMetadata(group.id).then(
      () => expect.fail('a former member sees the group'),
      (err: Error) => expect(err.message).to.equal('item-not-found'),
    )
  })

  it('members hear of subject changes and participant changes', async () => {
    const alice = await link(ALICE)
    const group = await alice.sock.groupCreate('Old name', [jid(BOB), jid(CAROL)])
    await w.sandbox.as(BOB).group({ op: 'subject', groupId: group.id, name: 'New name' })
    await alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'groups.update') for (const u of e.data) if (u.id === group.id && u.subject === 'New name') return true
      return undefined
    }, 'subject update')
    await alice.sock.groupParticipantsUpdate(group.id, [jid(CAROL)], 'remove')
    await alice.waitFor((ev) => {
      for (const e of ev) {
        if (e.event === 'group-participants.update' && e.data.action === 'remove' && e.data.participants.some((p) => p.id === jid(CAROL))) return true
      }
      return undefined
    }, 'remove event')
    const meta = await alice.sock.groupMetadata(group.id)
    expect(meta.subject).to.equal('New name')
    expect(meta.participants.map((p) => p.id).sort()).to.deep.equal([jid(ALICE), jid(BOB)])
  })
})

async function waitUntil<T>(find: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}
