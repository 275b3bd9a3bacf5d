/**
 * Messaging: send, statuses, receive, replies, not-registered, reactions, delete, edit, presence.
 * @module
 */
import assert from 'node:assert/strict'
import type { ContractKit, MochaGlobals } from './kit.js'

export function registerMessaging(k: ContractKit, { describe, it }: MochaGlobals): void {
  describe('messaging', () => {
    it('sends a text the peer receives; delivered follows, statuses never go back', async function () {
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'hello from the contract')
      assert.equal(typeof sent.id, 'string')
      assert.equal(sent.to, k.peer().jid)
      await k.status(s, sent.id, 'delivered')
      const order = ['pending', 'sent', 'delivered', 'read', 'played']
      const seen = k.rec.of('message.status', s).filter((e) => e.messageId === sent.id).map((e) => order.indexOf(e.status))
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'statuses in order')
      assert.ok(k.rec.of('message.status', s).filter((e) => e.messageId === sent.id).every((e) => e.chatId === k.peer().jid))
      const got = await k.inPeerInbox(k.peer(), sent.id)
      assert.equal(got.text, 'hello from the contract')
      assert.equal(got.from, k.meJid())
    })

    it('reports read once the peer reads the message', async function () {
      k.need(this, 'readReceipts')
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'read me')
      await k.inPeerInbox(k.peer(), sent.id)
      await k.peer().read(k.meJid(), [sent.id])
      const read = await k.status(s, sent.id, 'read')
      assert.equal(read.chatId, k.peer().jid)
    })

    it('receives a text from the peer as message.received', async function () {
      const s = k.sid()
      await k.h.link(s)
      const id = await k.peer().send(k.meJid(), 'hi from the peer')
      const message = await k.received(s, id)
      assert.equal(message.from, k.peer().jid)
      assert.equal(message.chatId, k.peer().jid)
      assert.equal(message.to, k.meJid())
      assert.equal(message.fromMe, false)
      assert.equal(message.isGroup, false)
      assert.equal(message.body, 'hi from the peer')
      assert.ok(['conversation', 'extendedTextMessage'].includes(message.type), `text type, got ${message.type}`)
      assert.ok(Number.isInteger(message.timestampSec) && message.timestampSec > 0)
    })

    it('replies quoting a received message', async function () {
      const s = k.sid()
      await k.h.link(s)
      const id = await k.peer().send(k.meJid(), 'question?')
      const question = await k.received(s, id)
      const reply = await k.sendText(s, k.peer().jid, 'answer', k.refOf(question, k.peer().jid, false))
      const got = await k.inPeerInbox(k.peer(), reply.id)
      assert.equal(got.quotedMessageId, id)
    })

    it('receives a reply with the id of the quoted message', async function () {
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'ping')
      await k.inPeerInbox(k.peer(), sent.id)
      const id = await k.peer().send(k.meJid(), 'pong', { quotedMessageId: sent.id })
      const message = await k.received(s, id)
      assert.equal(message.quotedMessageId, sent.id)
    })

    it('refuses a number that is not registered (NUMBER_NOT_REGISTERED)', async function () {
      const s = k.sid()
      await k.h.link(s)
      await assert.rejects(k.sendText(s, `${k.h.unregisteredPhone}@s.whatsapp.net`, 'anyone?'), (err: unknown) => {
        assert.equal((err as { code?: unknown }).code, 'NUMBER_NOT_REGISTERED')
        assert.equal((err as Error).message, 'Number is not registered on WhatsApp')
        return true
      })
    })

    it('reacts to a message (the peer sees the reaction)', async function () {
      k.need(this, 'reactions')
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'react to this')
      await k.inPeerInbox(k.peer(), sent.id)
      await k.h.driver.message(s, { op: 'react', message: k.refOf(sent, k.peer().jid, true), emoji: '👍' })
      const got = await k.inPeerInbox(k.peer(), sent.id, (m) => (m.reactions ?? []).length > 0)
      assert.deepEqual(got.reactions, [{ from: k.meJid(), emoji: '👍' }])
    })

    it('hears the peer react to its message (message.reaction)', async function () {
      k.need(this, 'reactions', k.peer().react)
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'like this')
      await k.inPeerInbox(k.peer(), sent.id)
      await k.peer().react!(k.meJid(), sent.id, '❤️')
      const reaction = await k.until('message.reaction', () => k.rec.of('message.reaction', s).find((r) => r.messageId === sent.id))
      assert.equal(reaction.from, k.peer().jid)
      assert.equal(reaction.chatId, k.peer().jid)
      assert.equal(reaction.reaction, '❤️')
    })

    it('deletes its own message for everyone', async function () {
      k.need(this, 'revoke')
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'oops')
      await k.inPeerInbox(k.peer(), sent.id)
      await k.h.driver.message(s, { op: 'revoke', message: k.refOf(sent, k.peer().jid, true) })
      const got = await k.inPeerInbox(k.peer(), sent.id, (m) => m.revoked === true)
      assert.equal(got.text, undefined)
    })

    it('edits its own text', async function () {
      k.need(this, 'edit')
      const s = k.sid()
      await k.h.link(s)
      const sent = await k.sendText(s, k.peer().jid, 'teh typo')
      await k.inPeerInbox(k.peer(), sent.id)
      await k.h.driver.message(s, { op: 'edit', message: k.refOf(sent, k.peer().jid, true), text: 'the typo' })
      const got = await k.inPeerInbox(k.peer(), sent.id, (m) => m.text === 'the typo')
      assert.equal(got.edited, true)
    })

    it('shows a typing indicator to the peer', async function () {
      k.need(this, 'presence', k.peer().presences)
      const s = k.sid()
      await k.h.link(s)
      await k.h.driver.chat(s, { op: 'presence', chatId: k.peer().jid, state: 'composing' })
      const seen = await k.until('composing', async () => (await k.peer().presences!()).find((p) => p.from === k.meJid()))
      assert.equal(seen.state, 'composing')
    })
  })
}
