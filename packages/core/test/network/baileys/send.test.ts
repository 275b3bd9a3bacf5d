import { Boom } from '@hapi/boom'
import { expect } from 'chai'
import { hasErrorCode } from '../../../src/errors/index.js'
import type { OutboundContent } from '../../../src/network/types.js'
import { SENT_MESSAGE_SLOTS, SentMessageStore } from '../../../src/network/baileys/message-store.js'
import { fixture } from './support/fixtures.js'
import { memoryAuthStore } from './support/memory-auth-store.js'
import { ALICE, GROUP, openLinked, SESSION, setup } from './support/setup.js'

const media = (mimetype: string, filename?: string) => ({ data: Buffer.from([1, 2, 3]), mimetype, ...(filename ? { filename } : {}) })

describe('BaileysDriver.send()', () => {
  const cases: [string, OutboundContent, Record<string, unknown>][] = [
    ['text (no link preview fetch)', { type: 'text', text: 'hi https://example.com' }, { text: 'hi https://example.com', linkPreview: null }],
    ['image', { type: 'image', media: media('image/png'), caption: 'c' }, { image: Buffer.from([1, 2, 3]), mimetype: 'image/png', caption: 'c' }],
    ['video', { type: 'video', media: media('video/mp4') }, { video: Buffer.from([1, 2, 3]), mimetype: 'video/mp4' }],
    ['audio', { type: 'audio', media: media('audio/mpeg'), ptt: false }, { audio: Buffer.from([1, 2, 3]), mimetype: 'audio/mpeg', ptt: false }],
    ['voice note', { type: 'audio', media: media('audio/ogg'), ptt: true }, { audio: Buffer.from([1, 2, 3]), mimetype: 'audio/ogg; codecs=opus', ptt: true }],
    [
      'document',
      { type: 'document', media: { ...media('application/pdf'), filename: 'a.pdf' }, caption: 'doc' },
      { document: Buffer.from([1, 2, 3]), mimetype: 'application/pdf', fileName: 'a.pdf', caption: 'doc' },
    ],
    ['sticker', { type: 'sticker', media: media('image/webp') }, { sticker: Buffer.from([1, 2, 3]), mimetype: 'image/webp' }],
    [
      'contact',
      { type: 'contact', name: 'Carol', phone: '15550004444', vcard: 'BEGIN:VCARD\nEND:VCARD' },
      { contacts: { displayName: 'Carol', contacts: [{ displayName: 'Carol', vcard: 'BEGIN:VCARD\nEND:VCARD' }] } },
    ],
    [
      'location',
      { type: 'location', latitude: 1.5, longitude: 2.5, description: 'Here' },
      { location: { degreesLatitude: 1.5, degreesLongitude: 2.5, name: 'Here' } },
    ],
    [
      'poll',
      { type: 'poll', name: 'Lunch?', options: ['Pizza', 'Sushi'], selectableCount: 1 },
      { poll: { name: 'Lunch?', values: ['Pizza', 'Sushi'], selectableCount: 1 } },
    ],
  ]
  for (const [name, content, expected] of cases) {
    it(`sends ${name} with the right content shape, media as bytes`, async () => {
      const h = setup()
      const socket = await openLinked(h)
      await h.driver.send(SESSION, { to: ALICE.pn, content })
      const [jid, sent] = (socket.callsOf('sendMessage') as [string, Record<string, unknown>][])[0]!
      expect(jid).to.equal(ALICE.pn)
      expect(sent).to.deep.equal(expected)
      expect(JSON.stringify(sent)).to.not.match(/"url"/)
    })
  }

  it('returns id, to, timestamp and a JSON-safe raw, and records the message for retries', async () => {
    const h = setup()
    const socket = await openLinked(h)
    const sent = await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'hello' } })
    const options = (socket.callsOf('sendMessage')[0] as [string, unknown, { messageId: string }])[2]
    expect(sent.id).to.equal(options.messageId)
    expect(sent).to.deep.include({ to: ALICE.pn, timestampMs: 1769850930000 })
    expect((sent.raw as { key: { id: string } }).key.id).to.equal(sent.id)
    const retried = await socket.config.getMessage!({ remoteJid: ALICE.pn, id: sent.id })
    expect(retried?.extendedTextMessage?.text).to.equal('hello')
  })

  it('serves getMessage for retries after a restart (a new driver on the same auth store)', async () => {
    const first = setup()
    await openLinked(first)
    const sent = await first.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'kept' } })
    await first.driver.shutdown()
    const second = setup()
    second.auth.creds = first.auth.creds
    for (const [k, v] of first.auth.keys) second.auth.keys.set(k, v)
    await second.driver.open(SESSION, { auth: second.auth })
    const message = await second.net.last.config.getMessage!({ remoteJid: ALICE.pn, id: sent.id })
    expect(message?.extendedTextMessage?.text).to.equal('kept')
    expect(await second.net.last.config.getMessage!({ remoteJid: ALICE.pn, id: 'unknown' })).to.equal(undefined)
  })

  it('quotes with the stored message record (full WAMessage), or a stand-in without one', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.emit('messages.upsert', fixture('messages-inbound-lid.json').notify)
    await h.settle()
    const received = h.of('message.received')[0]!.message
    await h.driver.send(SESSION, {
      to: ALICE.pn,
      content: { type: 'text', text: 'reply' },
      quoted: { id: received.id, chatId: received.chatId, fromMe: false, raw: JSON.parse(JSON.stringify(received.raw)) },
    })
    const options = (socket.callsOf('sendMessage')[0] as [string, unknown, { quoted: { key: Record<string, unknown>; message: { conversation: string } } }])[2]
    expect(options.quoted.key).to.deep.include({ id: received.id, remoteJid: ALICE.lid, remoteJidAlt: ALICE.pn })
    expect(options.quoted.message.conversation).to.equal('hi over lid')
    await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'reply 2' }, quoted: { id: 'OLD', chatId: ALICE.pn, fromMe: true, timestampSec: 5 } })
    const fallback = (socket.callsOf('sendMessage')[1] as [string, unknown, { quoted: unknown }])[2].quoted
    expect(fallback).to.deep.equal({ key: { remoteJid: ALICE.pn, id: 'OLD', fromMe: true }, message: { conversation: '' }, messageTimestamp: 5 })
  })

  it('checks a phone number once (cached), fails unregistered numbers, and skips the check for groups and known LIDs', async () => {
    const h = setup()
    const socket = await openLinked(h)
    await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: '1' } })
    await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: '2' } })
    expect(socket.callsOf('onWhatsApp')).to.deep.equal([['15550002222']])
    socket.answers.onWhatsApp = async () => []
    const err = await h.driver.send(SESSION, { to: '15550004444@s.whatsapp.net', content: { type: 'text', text: 'x' } }).catch((e: unknown) => e)
    expect(hasErrorCode(err, 'NUMBER_NOT_REGISTERED')).to.equal(true)
    expect((err as Error).message).to.equal('Number is not registered on WhatsApp')
    await h.driver.send(SESSION, { to: GROUP, content: { type: 'text', text: 'g' } })
    socket.emit('lid-mapping.update', { lid: '88880005555@lid', pn: '15550005555@s.whatsapp.net' })
    await h.settle()
    await h.driver.send(SESSION, { to: '15550005555@s.whatsapp.net', content: { type: 'text', text: 'known' } })
    expect(socket.callsOf('onWhatsApp')).to.have.length(2)
    await h.clock.tick(24 * 60 * 60_000)
    delete socket.answers.onWhatsApp
    await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: '3' } })
    expect(socket.callsOf('onWhatsApp')).to.have.length(3)
  })

  it('refuses to send on a session that is not open, with the catalog error', async () => {
    const h = setup()
    const notOpen = await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'x' } }).catch((e: unknown) => e)
    expect(hasErrorCode(notOpen, 'SESSION_NOT_AUTHENTICATED')).to.equal(true)
    expect((notOpen as Error).message).to.equal(`Session not authenticated. Please scan the QR code first using GET /sessions/${SESSION}/qr`)
    const socket = await openLinked(h)
    socket.emit('connection.update', { connection: 'close', lastDisconnect: { error: new Boom('Connection Terminated', { statusCode: 428 }) } })
    await h.settle()
    const connecting = await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'x' } }).catch((e: unknown) => e)
    expect(hasErrorCode(connecting, 'SESSION_CONNECTING')).to.equal(true)
  })

  it('translates Baileys send errors (Boom) into the catalog', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.answers.sendMessage = async () => {
      throw new Boom('Connection Closed', { statusCode: 428 })
    }
    const closed = await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'x' } }).catch((e: unknown) => e)
    expect(hasErrorCode(closed, 'NETWORK_UNAVAILABLE')).to.equal(true)
    expect((closed as Error).cause).to.be.instanceOf(Boom)
    socket.answers.sendMessage = async () => {
      throw new TypeError('weird')
    }
    const weird = await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'x' } }).catch((e: unknown) => e)
    expect(hasErrorCode(weird, 'INTERNAL')).to.equal(true)
  })
})

describe('SentMessageStore', () => {
  it('keeps a bounded ring: the oldest message leaves when its slot is reused, in one atomic write', async () => {
    const auth = memoryAuthStore()
    const store = new SentMessageStore(auth, 2)
    for (const id of ['A', 'B', 'C']) await store.save({ key: { remoteJid: ALICE.pn, id, fromMe: true }, message: { conversation: id } })
    expect(await store.get({ id: 'A' })).to.equal(undefined)
    expect((await store.get({ id: 'C' }))?.conversation).to.equal('C')
    expect(auth.writes.at(-1)).to.deep.equal({ 'sb-msg': { C: { remoteJid: ALICE.pn, message: { conversation: 'C' } }, A: null }, 'sb-msg-slot': { '0': 'C' }, 'sb-msg-cursor': { cursor: 3 } })
    const reopened = new SentMessageStore(auth, 2)
    await reopened.save({ key: { remoteJid: ALICE.pn, id: 'D', fromMe: true }, message: { conversation: 'D' } })
    expect(await reopened.get({ id: 'B' })).to.equal(undefined)
    expect(SENT_MESSAGE_SLOTS).to.equal(2000)
  })
})
