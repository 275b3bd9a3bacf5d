import { expect } from 'chai'
import type { proto } from '@whiskeysockets/baileys'
import { restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { linkedClient, startHarness, type Harness, type TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'

describe('protocol door: 1:1 messaging', function () {
  this.timeout(20_000)
  let h: Harness
  let alice: TestClient

  beforeEach(async () => {
    h = await startHarness()
    h.world.addAccount(ALICE, 'Alice')
    h.world.addAccount(BOB, 'Bob')
    alice = await linkedClient(h, ALICE)
  })

  afterEach(async () => {
    await alice.stop()
    await h.close()
    restoreTrustAnchor()
  })

  const upserts = (c: TestClient) =>
    c.events.flatMap((e) => (e.event === 'messages.upsert' ? e.data.messages.map((m) => ({ type: e.data.type, m })) : []))

  it('delivers a message from an account to the linked client (pkmsg, then msg)', async () => {
    const id1 = await h.world.sendAs(BOB, ALICE, { conversation: 'hello from bob' })
    const id2 = await h.world.sendAs(BOB, ALICE, { conversation: 'second' })
    const got = await alice.waitFor((ev) => {
      const list = upserts(alice).filter((u) => !u.m.key.fromMe && u.m.message?.conversation)
      return list.length >= 2 ? list : undefined
    }, 'two upserts')
    expect(got.map((u) => u.m.key.id)).to.deep.equal([id1, id2])
    expect(got[0]!.type).to.equal('notify')
    expect(got[0]!.m.key.remoteJid).to.equal(`${BOB}@s.whatsapp.net`)
    expect(got[0]!.m.pushName).to.equal('Bob')
    expect(got.map((u) => u.m.message?.conversation)).to.deep.equal(['hello from bob', 'second'])
  })

  it('takes a message from the client to an account, with delivered and read receipts', async () => {
    const sent = await alice.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'hi bob' })
    const inbox = await alice.waitFor(() => (h.world.inbox.get(BOB)?.length ? h.world.inbox.get(BOB) : undefined), 'bob inbox')
    expect(inbox[0]).to.include({ id: sent!.key.id, from: ALICE, to: BOB })
    expect((inbox[0]!.message as proto.IMessage).extendedTextMessage?.text ?? inbox[0]!.message.conversation).to.equal('hi bob')
    await h.world.read(BOB, ALICE, [sent!.key.id!])
    const statuses = await alice.waitFor((ev) => {
      const s: number[] = []
      for (const e of ev) {
        if (e.event === 'messages.update') for (const u of e.data) if (u.key.id === sent!.key.id && u.update.status) s.push(u.update.status)
        if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === sent!.key.id && m.status) s.push(m.status)
      }
      return s.includes(4) ? s : undefined
    }, 'read status')
    expect(statuses).to.include(4)
  })
})
