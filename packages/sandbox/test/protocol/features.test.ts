import { expect } from 'chai'
import { proto } from '@whiskeysockets/baileys'
import { restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { linkedClient, startHarness, type Harness, type TestClient } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'
const BOB_JID = `${BOB}@s.whatsapp.net`

describe('protocol door: replies, reactions, edits, deletes, presence', function () {
  this.timeout(20_000)
  let h: Harness
  let alice: TestClient

  before(async () => {
    h = await startHarness()
    h.world.addAccount(ALICE, 'Alice')
    h.world.addAccount(BOB, 'Bob')
    alice = await linkedClient(h, ALICE)
  })

  after(async () => {
    await alice.stop()
    await h.close()
    restoreTrustAnchor()
  })

  const bobGot = (pick: (m: proto.IMessage) => boolean) =>
    alice.waitFor(() => h.world.inbox.get(BOB)?.find((m) => pick(m.message)), 'bob inbox')

  const received = (id: string) =>
    alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.upsert') for (const m of e.data.messages) if (m.key.id === id) return m
      return undefined
    }, `message ${id}`)

  it('client → account: a quoted reply carries the quoted id', async () => {
    const id = await h.world.sendAs(BOB, ALICE, { conversation: 'question?' })
    const original = await received(id)
    const reply = await alice.sock.sendMessage(BOB_JID, { text: 'answer' }, { quoted: original })
    const got = await bobGot((m) => m.extendedTextMessage?.text === 'answer')
    expect(got.id).to.equal(reply!.key.id)
    expect(got.message.extendedTextMessage?.contextInfo?.stanzaId).to.equal(id)
  })

  it('account → client: a quoted reply arrives with its context', async () => {
    const mine = await alice.sock.sendMessage(BOB_JID, { text: 'ping' })
    const id = await h.world.sendAs(BOB, ALICE, {
      extendedTextMessage: {
        text: 'pong',
        contextInfo: { stanzaId: mine!.key.id!, participant: `${ALICE}@s.whatsapp.net`, quotedMessage: { conversation: 'ping' } },
      },
    })
    const m = await received(id)
    expect(m.message?.extendedTextMessage?.contextInfo?.stanzaId).to.equal(mine!.key.id)
  })

  it('reactions both ways', async () => {
    const id = await h.world.sendAs(BOB, ALICE, { conversation: 'react to me' })
    const original = await received(id)
    await alice.sock.sendMessage(BOB_JID, { react: { text: '👍', key: original.key } })
    const got = await bobGot((m) => !!m.reactionMessage)
    expect(got.message.reactionMessage?.text).to.equal('👍')
    expect(got.message.reactionMessage?.key?.id).to.equal(id)

    const mine = await alice.sock.sendMessage(BOB_JID, { text: 'nice?' })
    await h.world.sendAs(BOB, ALICE, {
      reactionMessage: { key: { remoteJid: `${ALICE}@s.whatsapp.net`, fromMe: false, id: mine!.key.id! }, text: '❤️', senderTimestampMs: Date.now() },
    })
    const reaction = await alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'messages.reaction') for (const r of e.data) if (r.key.id === mine!.key.id) return r
      return undefined
    }, 'reaction')
    expect(reaction.reaction.text).to.equal('❤️')
  })

  it('edit and delete for everyone, client → account', async () => {
    const mine = await alice.sock.sendMessage(BOB_JID, { text: 'typo' })
    await alice.sock.sendMessage(BOB_JID, { text: 'fixed', edit: mine!.key })
    const edit = await bobGot((m) => m.protocolMessage?.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT)
    expect(edit.message.protocolMessage?.key?.id).to.equal(mine!.key.id)
    expect(edit.message.protocolMessage?.editedMessage?.conversation ?? edit.message.protocolMessage?.editedMessage?.extendedTextMessage?.text).to.equal('fixed')
    await alice.sock.sendMessage(BOB_JID, { delete: mine!.key })
    const revoke = await bobGot((m) => m.protocolMessage?.type === proto.Message.ProtocolMessage.Type.REVOKE)
    expect(revoke.message.protocolMessage?.key?.id).to.equal(mine!.key.id)
  })

  it('edit and delete for everyone, account → client', async () => {
    const id = await h.world.sendAs(BOB, ALICE, { conversation: 'oops' })
    await received(id)
    const key = { remoteJid: `${ALICE}@s.whatsapp.net`, fromMe: true, id }
    await h.world.sendAs(BOB, ALICE, {
      protocolMessage: { key, type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, editedMessage: { conversation: 'better' }, timestampMs: Date.now() },
    })
    await h.world.sendAs(BOB, ALICE, { protocolMessage: { key, type: proto.Message.ProtocolMessage.Type.REVOKE } })
    const updates = await alice.waitFor((ev) => {
      const u = ev.flatMap((e) => (e.event === 'messages.update' ? e.data.filter((x) => x.key.id === id) : []))
      return u.some((x) => x.update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) ? u : undefined
    }, 'edit + revoke')
    expect(updates.some((u) => u.update.message?.editedMessage?.message?.conversation === 'better')).to.equal(true)
  })

  it('typing both ways and presence on subscribe', async () => {
    await alice.sock.sendPresenceUpdate('composing', BOB_JID)
    await alice.waitFor(() => (h.world.events.some((e) => e.type === 'chatstate' && e.state === 'composing') ? true : undefined), 'chatstate')
    await h.emulator.deliverChatState(ALICE, BOB, 'recording')
    await alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'presence.update' && e.data.presences[BOB_JID]?.lastKnownPresence === 'recording') return true
      return undefined
    }, 'recording')
    h.world.presence.set(BOB, true)
    await alice.sock.presenceSubscribe(BOB_JID)
    await alice.waitFor((ev) => {
      for (const e of ev) if (e.event === 'presence.update' && e.data.presences[BOB_JID]?.lastKnownPresence === 'available') return true
      return undefined
    }, 'available')
    await alice.sock.sendPresenceUpdate('available')
    await alice.waitFor(() => (h.world.presence.get(ALICE) === true ? true : undefined), 'alice online')
  })
})
