import { expect } from 'chai'
import { fixture } from './support/fixtures.js'
import { ALICE, BOB, GROUP, ME, openLinked, SESSION, setup, type Harness } from './support/setup.js'

async function linked(): Promise<{ h: Harness; socket: Awaited<ReturnType<typeof openLinked>> }> {
  const h = setup()
  const socket = await openLinked(h)
  return { h, socket }
}

describe('BaileysDriver inbound messages', () => {
  it('maps every message type of a PN-addressed chat (types, bodies, media facts, quotes, Longs)', async () => {
    const { h, socket } = await linked()
    const fx = fixture('messages-inbound-pn.json')
    socket.emit('messages.upsert', fx.upsert)
    await h.settle()
    const received = h.of('message.received').map((e) => e.message)
    expect(received).to.have.length(fx.expected.length)
    for (const [i, expected] of (fx.expected as Record<string, unknown>[]).entries()) {
      expect(received[i], String(expected['id'])).to.deep.include(expected)
    }
    for (const m of received) {
      expect(m).to.deep.include({ chatId: ALICE.pn, from: ALICE.pn, fromLid: ALICE.lid, to: ME.jid, fromMe: false, isGroup: false, pushName: 'Alice' })
      expect(m.offline).to.equal(undefined)
      expect(m.participant).to.equal(undefined)
    }
    expect(received[0]!.quotedMessageId).to.equal(undefined)
    expect(received[7]!.media).to.equal(undefined)
  })

  it('maps every message type the same when the chat is LID-addressed (PN in remoteJidAlt)', async () => {
    const { h, socket } = await linked()
    const fx = fixture('messages-inbound-pn.json')
    for (const m of fx.upsert.messages) m.key = { ...m.key, remoteJid: ALICE.lid, remoteJidAlt: ALICE.pn, addressingMode: 'lid' }
    socket.emit('messages.upsert', fx.upsert)
    await h.settle()
    const received = h.of('message.received').map((e) => e.message)
    expect(received).to.have.length(fx.expected.length)
    for (const [i, expected] of (fx.expected as Record<string, unknown>[]).entries()) {
      expect(received[i], String(expected['id'])).to.deep.include({ ...expected, chatId: ALICE.pn, from: ALICE.pn, fromLid: ALICE.lid })
    }
  })

  it('keeps a JSON-safe raw WAMessage (Longs as numbers, bytes as Buffers) for quoting and downloads', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.upsert', fixture('messages-inbound-pn.json').upsert)
    await h.settle()
    const image = h.of('message.received')[2]!.message
    const raw = image.raw as { key: { id: string }; message: { imageMessage: Record<string, unknown> }; messageTimestamp: number }
    expect(raw.key.id).to.equal('3EB0PN0000000003')
    expect(raw.messageTimestamp).to.equal(1769850904)
    expect(raw.message.imageMessage['fileLength']).to.equal(52417)
    expect(Buffer.isBuffer(raw.message.imageMessage['mediaKey'])).to.equal(true)
    expect(JSON.parse(JSON.stringify(raw)).key.id).to.equal('3EB0PN0000000003')
  })

  it('shows the phone-number JID for LID-addressed senders and learns the pairs', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.upsert', fixture('messages-inbound-lid.json').notify)
    await h.settle()
    const received = h.of('message.received').map((e) => e.message)
    expect(received.map((m) => m.id)).to.deep.equal(['3EB0LID000000001', '3EB0LID000000002', '3EB0GRP000000001', '3EB0GRP000000002'])
    expect(received[0]).to.deep.include({ chatId: ALICE.pn, from: ALICE.pn, fromLid: ALICE.lid, body: 'hi over lid', type: 'conversation' })
    expect(received[1], 'no PN known: the LID is all there is').to.deep.include({ chatId: '88880009999@lid', from: '88880009999@lid', fromLid: '88880009999@lid' })
    expect(received[2]).to.deep.include({
      chatId: GROUP,
      to: GROUP,
      isGroup: true,
      from: BOB.pn,
      participant: BOB.pn,
      fromLid: BOB.lid,
      body: 'hello group',
      type: 'conversation',
    })
    expect(received[3]).to.deep.include({ chatId: GROUP, from: ALICE.pn, participant: ALICE.pn, fromLid: ALICE.lid, type: 'extendedTextMessage' })
    const mappings = h.of('identity.mapping').flatMap((e) => e.mappings)
    expect(mappings).to.deep.include({ lid: ALICE.lid, pn: ALICE.pn })
    expect(mappings).to.deep.include({ lid: BOB.lid, pn: BOB.pn })
    expect(socket.callsOf('storeLIDPNMappings').flat(2)).to.deep.include({ lid: BOB.lid, pn: BOB.pn })
  })

  it('uses the persisted LID table for a later message that carries no alt', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.upsert', fixture('messages-inbound-lid.json').notify)
    await h.settle()
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [{ key: { remoteJid: BOB.lid, fromMe: false, id: 'NOALT1' }, messageTimestamp: 1769850999, message: { conversation: 'again' } }],
    })
    await h.settle()
    expect(h.of('message.received').at(-1)!.message).to.deep.include({ id: 'NOALT1', chatId: BOB.pn, from: BOB.pn, fromLid: BOB.lid })
    expect(h.auth.keys.get(`sb-lid:${BOB.lid}`)).to.equal(JSON.stringify(BOB.pn))
  })

  it('falls back to Baileys own LID store when ours has no entry', async () => {
    const { h, socket } = await linked()
    socket.lids.set('15550007777@s.whatsapp.net', '88880007777@lid')
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [{ key: { remoteJid: '88880007777@lid', fromMe: false, id: 'FALLBACK1' }, messageTimestamp: 1769850999, message: { conversation: 'x' } }],
    })
    await h.settle()
    expect(h.of('message.received')[0]!.message).to.deep.include({ from: '15550007777@s.whatsapp.net', fromLid: '88880007777@lid' })
  })

  it('skips protocol messages, reactions and decryption failures, and deduplicates by id', async () => {
    const { h, socket } = await linked()
    const notify = fixture('messages-inbound-lid.json').notify
    socket.emit('messages.upsert', notify)
    socket.emit('messages.upsert', notify)
    await h.settle()
    const ids = h.of('message.received').map((e) => e.message.id)
    expect(ids).to.not.include.members(['3EB0SKIP00000001', '3EB0SKIP00000002', '3EB0SKIP00000003'])
    expect(ids.filter((id) => id === '3EB0LID000000001')).to.have.length(1)
  })

  it('delivers offline (append) messages marked offline, and own messages from other devices', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.upsert', fixture('messages-inbound-lid.json').offline)
    await h.settle()
    const [offline, mine] = h.of('message.received').map((e) => e.message)
    expect(offline).to.deep.include({ id: '3EB0OFF000000001', offline: true, from: ALICE.pn, body: 'sent while you were offline' })
    expect(mine).to.deep.include({ id: '3EB0OTHERDEV0001', fromMe: true, from: ME.jid, to: ALICE.pn, chatId: ALICE.pn, fromLid: ME.lid })
    expect(mine!.offline).to.equal(undefined)
    // The same messages delivered again (a replayed offline batch) are not delivered twice.
    socket.emit('messages.upsert', fixture('messages-inbound-lid.json').offline)
    await h.settle()
    expect(h.of('message.received')).to.have.length(2)
  })
})

describe('BaileysDriver statuses, revokes, edits and reactions', () => {
  it('reads the status folded into the echo of our own send, and never reports that echo as received', async () => {
    const { h, socket } = await linked()
    const sent = await h.driver.send(SESSION, { to: ALICE.pn, content: { type: 'text', text: 'hello alice' } })
    await h.settle()
    const echo = fixture('receipts.json').ownEcho
    echo.messages[0].key.id = sent.id
    socket.emit('messages.upsert', echo)
    await h.settle()
    expect(h.of('message.received')).to.deep.equal([])
    expect(h.of('message.status').map((s) => [s.messageId, s.status, s.chatId])).to.deep.equal([[sent.id, 'read', ALICE.pn]])
  })

  it('maps messages.update statuses (1:1) forward only, and error acks to failed', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.update', fixture('receipts.json').updates)
    await h.settle()
    const statuses = h.of('message.status')
    expect(statuses.map((s) => [s.messageId, s.status, s.chatId])).to.deep.equal([
      ['3EB0OURS00000002', 'delivered', ALICE.pn],
      ['3EB0OURS00000002', 'read', ALICE.pn],
      ['3EB0OURS00000003', 'failed', '15550004444@s.whatsapp.net'],
    ])
    expect(statuses[0]!.timestampSec).to.equal(Math.floor(h.clock.now() / 1000))
  })

  it('ignores status updates about received messages', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.update', [{ key: { remoteJid: ALICE.pn, fromMe: false, id: 'THEIRS' }, update: { status: 4 } }])
    await h.settle()
    expect(h.of('message.status')).to.deep.equal([])
  })

  it('maps group receipts with the participant (PN when known)', async () => {
    const { h, socket } = await linked()
    socket.emit('lid-mapping.update', { lid: BOB.lid, pn: BOB.pn })
    socket.emit('message-receipt.update', fixture('receipts.json').groupReceipts)
    await h.settle()
    expect(h.of('message.status').map((s) => [s.messageId, s.chatId, s.status, s.participant])).to.deep.equal([
      ['3EB0OURS00000004', GROUP, 'delivered', BOB.pn],
      ['3EB0OURS00000004', GROUP, 'read', BOB.pn],
    ])
  })

  it('maps a revoke (messages.update, stub REVOKE) and edits', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.update', fixture('revoke-edit-reaction.json').updates)
    await h.settle()
    expect(h.of('message.revoked')).to.deep.equal([
      { sessionId: SESSION, messageId: '3EB0LID000000001', chatId: ALICE.pn, fromMe: false, timestampSec: Math.floor(h.clock.now() / 1000) },
    ])
    expect(h.of('message.edited').map((e) => [e.messageId, e.chatId, e.text, e.timestampSec])).to.deep.equal([
      ['3EB0LID000000001', ALICE.pn, 'hi over lid (edited)', 1769850950],
      ['3EB0GRP000000001', GROUP, 'hello group (edited)', 1769850951],
    ])
    expect(h.of('message.status')).to.deep.equal([])
  })

  it('maps reactions (added and removed) with the reactor as PN', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.reaction', fixture('revoke-edit-reaction.json').reactions)
    await h.settle()
    expect(h.of('message.reaction')).to.deep.equal([
      { sessionId: SESSION, messageId: '3EB0OURS00000001', chatId: ALICE.pn, from: ALICE.pn, reaction: '👍', timestampSec: 1769850955 },
      { sessionId: SESSION, messageId: '3EB0GRP000000001', chatId: GROUP, from: ALICE.pn, reaction: '', timestampSec: 1769850956 },
    ])
  })
})
