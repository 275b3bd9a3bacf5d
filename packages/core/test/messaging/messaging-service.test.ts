import { expect } from 'chai'
import { isGatewayError } from '../../src/errors/index.js'
import { makeTestGateway, type TestGateway } from '../support/test-gateway.js'

async function rejects(promise: Promise<unknown>, code: string, message?: string) {
  try {
    await promise
  } catch (err) {
    expect(isGatewayError(err), String(err)).to.equal(true)
    expect((err as { code: string }).code).to.equal(code)
    if (message !== undefined) expect((err as Error).message).to.equal(message)
    return err as { status: number }
  }
  expect.fail(`expected ${code}`)
}

describe('gateway.messaging', () => {
  let t: TestGateway
  let sessionId: string
  beforeEach(async () => {
    t = await makeTestGateway()
    const { record } = await t.gateway.sessions.create({ name: 'shop' }, t.gateway.masterPrincipal())
    sessionId = record.id
    t.driver.showQr(sessionId)
    await t.driver.link(sessionId, '15550001111')
    t.driver.registered.add('15550002222')
  })
  afterEach(async () => {
    await t.gateway.close()
  })

  describe('sendText()', () => {
    it('sends to a number, a +number or a JID and answers the send result', async () => {
      for (const to of ['15550002222', '+1 555-000-2222', '15550002222@s.whatsapp.net']) {
        const result = await t.gateway.messaging.sendText(sessionId, { to, text: 'hi' })
        expect(result).to.include({ to: '15550002222@s.whatsapp.net', type: 'text', status: 'sent' })
        expect(result.timestamp).to.equal('2026-01-31T09:15:02.123Z')
      }
      expect(t.driver.sent).to.have.length(3)
      expect(t.driver.sent[0]!.request).to.deep.equal({ to: '15550002222@s.whatsapp.net', content: { type: 'text', text: 'hi' } })
    })

    it('refuses numbers that are not on WhatsApp, asking the network once', async () => {
      await rejects(t.gateway.messaging.sendText(sessionId, { to: '15550009999', text: 'hi' }), 'NUMBER_NOT_REGISTERED', 'Number is not registered on WhatsApp')
      await rejects(t.gateway.messaging.sendText(sessionId, { to: '15550009999', text: 'hi' }), 'NUMBER_NOT_REGISTERED')
      expect(t.driver.calls.filter((c) => c.method === 'contact')).to.have.length(1)
    })

    it('refuses bad recipients and long texts with the spec texts', async () => {
      await rejects(t.gateway.messaging.sendText(sessionId, { to: '12', text: 'hi' }), 'INVALID_PHONE_NUMBER', 'Invalid phone number format')
      await rejects(t.gateway.messaging.sendText(sessionId, { to: 'abc@nowhere', text: 'hi' }), 'INVALID_JID', 'Invalid JID format')
      await rejects(
        t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'x'.repeat(65_537) }),
        'TEXT_TOO_LONG',
        'Message text exceeds maximum length',
      )
    })

    it('replies to a recorded message and refuses unknown ones', async () => {
      t.driver.receive(sessionId, { id: 'IN1', body: 'question' })
      await t.clock.flush()
      await t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'answer', quotedMessageId: 'IN1' })
      expect(t.driver.sent[0]!.request.quoted).to.include({ id: 'IN1', chatId: '15550002222@s.whatsapp.net', fromMe: false })
      await rejects(
        t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'x', quotedMessageId: 'NOPE' }),
        'MESSAGE_NOT_FOUND',
        'Message not found',
      )
    })

    it('keeps the furthest status when the network acknowledges before the send returns', async () => {
      const { messageId } = await t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'hi' })
      expect((await t.gateway.messaging.getRecord(sessionId, messageId)).status).to.equal('delivered')
      expect(t.eventsOf('message_status').map((e) => e.statusUpdate.status)).to.deep.equal(['delivered'])
    })

    it('applies the messages-per-minute limit of the session', async () => {
      for (let i = 0; i < 30; i++) await t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: `m${i}` })
      await rejects(t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'one too many' }), 'RATE_LIMITED')
      await t.clock.tick(60_000)
      await t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'next minute' })
    })

    it('does not send while the session is not ready', async () => {
      t.driver.emitUpdate(sessionId, { state: 'disconnected', reason: 'connection_lost', error: 'x', willReconnect: true })
      await rejects(t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'hi' }), 'SESSION_CONNECTING', 'Session is still connecting. Please wait.')
    })
  })

  describe('network events', () => {
    it('turns a received message into one message event, however often it arrives', async () => {
      t.driver.receive(sessionId, { id: 'IN1', body: 'hello', pushName: 'Alice', fromLid: '999@lid' })
      t.driver.receive(sessionId, { id: 'IN1', body: 'hello', offline: true })
      await t.clock.flush()
      const events = t.eventsOf('message')
      expect(events).to.have.length(1)
      expect(events[0]!.message).to.deep.equal({
        id: 'IN1',
        from: '15550002222@s.whatsapp.net',
        fromLid: '999@lid',
        to: '15550001111@s.whatsapp.net',
        body: 'hello',
        type: 'conversation',
        timestamp: 1769850902,
        hasMedia: false,
        fromMe: false,
        isGroup: false,
        pushName: 'Alice',
      })
      expect(events[0]!.timestamp).to.equal('2026-01-31T09:15:02.123Z')
    })

    it('keeps chats and contacts from messages and history', async () => {
      t.driver.receive(sessionId, { id: 'IN1', body: 'hello', pushName: 'Alice' })
      await t.clock.flush()
      t.driver.events.emit('chats.upsert', { sessionId, chats: [{ id: '120363000000000001@g.us', name: 'Team', timestampSec: 1 }] })
      t.driver.events.emit('contacts.upsert', { sessionId, contacts: [{ id: '15550003333@s.whatsapp.net', name: 'Bob' }] })
      await t.clock.flush()
      const chats = await t.gateway.directory.listChats(sessionId)
      expect(chats).to.deep.equal([
        { id: '15550002222@s.whatsapp.net', name: 'Alice', isGroup: false, unreadCount: 1, timestamp: 1769850902 },
        { id: '120363000000000001@g.us', name: 'Team', isGroup: true, unreadCount: 0, timestamp: 1 },
      ])
      const contacts = await t.gateway.directory.listContacts(sessionId)
      expect(contacts.map((c) => [c.id, c.name, c.notify, c.phone])).to.deep.equal([
        ['15550002222@s.whatsapp.net', '', 'Alice', '15550002222'],
        ['15550003333@s.whatsapp.net', 'Bob', '', '15550003333'],
      ])
    })

    it('moves statuses only forward and maps played to read', async () => {
      const { messageId } = await t.gateway.messaging.sendText(sessionId, { to: '15550002222', text: 'hi' })
      const status = (s: 'read' | 'delivered' | 'played') =>
        t.driver.events.emit('message.status', { sessionId, messageId, chatId: '15550002222@s.whatsapp.net', status: s, timestampSec: 5 })
      status('read')
      await t.clock.flush()
      status('delivered')
      await t.clock.flush()
      status('played')
      await t.clock.flush()
      expect(t.eventsOf('message_status').map((e) => e.statusUpdate.status)).to.deep.equal(['delivered', 'read', 'read'])
    })

    it('reports reactions and deletes for everyone with Unix timestamps', async () => {
      t.driver.events.emit('message.reaction', { sessionId, messageId: 'M1', chatId: 'c', from: 'f', reaction: '👍', timestampSec: 7 })
      t.driver.events.emit('message.revoked', { sessionId, messageId: 'M1', chatId: 'c', fromMe: false, timestampSec: 8 })
      await t.clock.flush()
      expect(t.eventsOf('message_reaction')[0]).to.deep.equal({
        event: 'message_reaction', sessionId, timestamp: 7, messageId: 'M1', chatId: 'c', from: 'f', reaction: '👍',
      })
      expect(t.eventsOf('message_revoke_everyone')[0]).to.deep.equal({
        event: 'message_revoke_everyone', sessionId, timestamp: 8, messageId: 'M1', chatId: 'c', fromMe: false,
      })
    })

    it('sweeps records past the retention period', async () => {
      t.driver.receive(sessionId, { id: 'OLD', timestampSec: 1 })
      t.driver.receive(sessionId, { id: 'NEW' })
      await t.clock.flush()
      expect(await t.gateway.messaging.sweep(30 * 24 * 3_600_000)).to.equal(1)
      await rejects(t.gateway.messaging.getRecord(sessionId, 'OLD'), 'MESSAGE_NOT_FOUND')
      expect((await t.gateway.messaging.getRecord(sessionId, 'NEW')).body).to.equal('hello')
    })
  })

  it('checks numbers', async () => {
    expect(await t.gateway.messaging.checkNumber(sessionId, '+1 555 000 2222')).to.deep.equal({ exists: true, jid: '15550002222@s.whatsapp.net' })
    expect(await t.gateway.messaging.checkNumber(sessionId, '15550009999')).to.deep.equal({ exists: false, jid: '15550009999@s.whatsapp.net' })
  })
})
