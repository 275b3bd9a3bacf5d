import { expect } from 'chai'
import type { OutboundContent } from '@switchboard/core'
import { T0 } from '@switchboard/core/testing'
import { caught } from '../support/setup.js'
import { makeWorld } from '../support/world.js'

const A = '15550001111'
const B = '15550002222'
const C = '15550003333'
const jid = (p: string) => `${p}@s.whatsapp.net`
const text = (t: string) => ({ type: 'text' as const, text: t })

describe('world.messages.send()', () => {
  it("puts a 1:1 message in the recipient's inbox with delivered status", () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('hello') })
    expect(m.id).to.match(/^3EB0[0-9A-F]{16}$/)
    expect(world.messages.inbox(B)).to.deep.equal([
      { id: m.id, chatId: jid(A), from: jid(A), to: jid(B), type: 'conversation', text: 'hello', timestamp: Math.floor(T0 / 1000), status: 'delivered' },
    ])
    expect(world.messages.inbox(A)).to.deep.equal([])
  })

  it('acknowledges to the sender devices: sent, then delivered', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    const m = f.world.messages.send(A, { to: jid(B), content: text('hi') }, 's-a')
    f.deliver()
    const statuses = f.of('s-a', 'message.status')
    expect(statuses.map((s) => s.status)).to.deep.equal(['sent', 'delivered'])
    expect(statuses[0]).to.deep.equal({ messageId: m.id, chatId: jid(B), status: 'sent', timestampSec: Math.floor(T0 / 1000) })
    expect(f.of('s-a', 'message.received')).to.deep.equal([], 'no copy of its own message for the sending device')
  })

  it("reaches the recipient's devices, and the sender's other devices as fromMe", () => {
    const f = makeWorld()
    f.device(A, 's-a1')
    f.device(A, 's-a2')
    f.device(B, 's-b')
    const m = f.world.messages.send(A, { to: jid(B), content: text('hey') }, 's-a1')
    f.deliver()
    const [toB] = f.of('s-b', 'message.received')
    expect(toB!.message).to.deep.include({ id: m.id, chatId: jid(A), from: jid(A), to: jid(B), fromMe: false, isGroup: false, body: 'hey', type: 'conversation', pushName: 'Sandbox 15550001111' })
    expect(toB!.message.fromLid).to.equal(f.world.accounts.get(A).lid)
    const [echo] = f.of('s-a2', 'message.received')
    expect(echo!.message).to.deep.include({ id: m.id, chatId: jid(B), fromMe: true })
  })

  it('queues for offline devices', () => {
    const f = makeWorld()
    f.device(B, 's-b', false)
    const m = f.world.messages.send(A, { to: jid(B), content: text('later') })
    f.deliver()
    expect(f.heard).to.deep.equal([])
    const queued = f.world.links.connect('s-b')
    expect(queued.map((n) => n.event)).to.deep.equal(['message.received'])
    expect(queued[0]!.event === 'message.received' && queued[0]!.payload.message.id).to.equal(m.id)
    expect(f.world.links.connect('s-b')).to.deep.equal([], 'the queue is drained')
  })

  it('marks replies and texts with a link as extendedTextMessage, with the quoted id', () => {
    const { world } = makeWorld()
    const first = world.messages.send(A, { to: jid(B), content: text('question') })
    world.messages.send(B, { to: jid(A), content: text('answer'), quotedId: first.id })
    world.messages.send(B, { to: jid(A), content: text('see https://example.com') })
    const inbox = world.messages.inbox(A)
    expect(inbox.map((m) => m.type)).to.deep.equal(['extendedTextMessage', 'extendedTextMessage'])
    expect(inbox[0]!.quotedMessageId).to.equal(first.id)
    expect(inbox[1]).to.not.have.property('quotedMessageId')
  })

  it('keeps media with mimetype, filename and caption, and gives the bytes back', () => {
    const { world } = makeWorld()
    const data = Buffer.from('%PDF-1.4')
    const m = world.messages.send(A, {
      to: jid(B),
      content: { type: 'document', media: { data, mimetype: 'application/pdf', filename: 'a.pdf' }, caption: 'the file' },
    })
    expect(world.messages.inbox(B)[0]).to.deep.include({ type: 'documentMessage', mimetype: 'application/pdf', filename: 'a.pdf', caption: 'the file' })
    expect(world.messages.inbox(B)[0]).to.not.have.property('text')
    const media = world.actions.media(B, { id: m.id, chatId: jid(A) })
    expect(media.data.equals(data)).to.equal(true)
    expect(media).to.include({ mimetype: 'application/pdf', filename: 'a.pdf' })
  })

  it('maps every content kind to its received type', () => {
    const { world } = makeWorld()
    const media = { data: Buffer.from('x'), mimetype: 'image/jpeg' }
    const contents: OutboundContent[] = [
      { type: 'image', media },
      { type: 'video', media: { ...media, mimetype: 'video/mp4' } },
      { type: 'audio', media: { ...media, mimetype: 'audio/ogg' }, ptt: true },
      { type: 'sticker', media: { ...media, mimetype: 'image/webp' } },
      { type: 'contact', name: 'Ann', phone: '15550004444', vcard: 'BEGIN:VCARD\nEND:VCARD' },
      { type: 'location', latitude: 1.5, longitude: 2.5, description: 'Here' },
      { type: 'poll', name: 'Lunch?', options: ['yes', 'no'], selectableCount: 1 },
    ]
    for (const content of contents) world.messages.send(A, { to: jid(B), content })
    const inbox = world.messages.inbox(B)
    expect(inbox.map((m) => m.type)).to.deep.equal(['imageMessage', 'videoMessage', 'audioMessage', 'stickerMessage', 'contactMessage', 'locationMessage', 'pollCreationMessage'])
    expect(inbox[4]!.contact).to.deep.equal({ name: 'Ann', phone: '15550004444', vcard: 'BEGIN:VCARD\nEND:VCARD' })
    expect(inbox[5]!.location).to.deep.equal({ latitude: 1.5, longitude: 2.5, description: 'Here' })
    expect(inbox[6]!.poll).to.deep.equal({ name: 'Lunch?', options: ['yes', 'no'], selectableCount: 1 })
  })

  it('refuses numbers that are not registered and malformed JIDs', async () => {
    const { world } = makeWorld()
    expect(await caught(() => world.messages.send(A, { to: jid('15550009999'), content: text('x') }))).to.include({
      code: 'NUMBER_NOT_REGISTERED',
      message: 'Number is not registered on WhatsApp',
      status: 404,
    })
    expect(await caught(() => world.messages.send(A, { to: 'nonsense@example.com', content: text('x') }))).to.include({ code: 'INVALID_JID' })
  })

  it('accepts but never delivers a message to someone who blocked the sender (one tick)', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    f.world.contacts.block(B, jid(A))
    f.world.messages.send(A, { to: jid(B), content: text('let me in') }, 's-a')
    f.deliver()
    expect(f.world.messages.inbox(B)).to.deep.equal([])
    expect(f.of('s-a', 'message.status').map((s) => s.status)).to.deep.equal(['sent'])
  })

  it('delivers to every other group member, with per-member receipts', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    const group = f.world.groups.create(A, 'G', [jid(B), jid(C)])
    f.deliver()
    const m = f.world.messages.send(A, { to: group.id, content: text('all') }, 's-a')
    f.deliver()
    expect(f.world.messages.inbox(B)[0]).to.include({ chatId: group.id, from: jid(A), to: group.id })
    expect(f.world.messages.inbox(C)[0]).to.include({ id: m.id })
    const delivered = f.of('s-a', 'message.status').filter((s) => s.status === 'delivered')
    expect(delivered.map((s) => s.participant)).to.deep.equal([jid(B), jid(C)])
  })

  it('refuses a group the sender is not in with `Group not found`', async () => {
    const { world } = makeWorld()
    const group = world.groups.create(A, 'G', [jid(B)])
    expect(await caught(() => world.messages.send(C, { to: group.id, content: text('x') }))).to.include({ code: 'GROUP_NOT_FOUND', message: 'Group not found' })
    expect(await caught(() => world.messages.send(A, { to: '120363000000000000@g.us', content: text('x') }))).to.include({ code: 'GROUP_NOT_FOUND' })
  })
})

describe('world.actions', () => {
  it('read: the sender gets read, the inbox shows it, reading twice says nothing', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    const m = f.world.messages.send(A, { to: jid(B), content: text('x') })
    expect(f.world.actions.read(B, jid(A), [m.id])).to.equal(1)
    expect(f.world.actions.read(B, jid(A), [m.id])).to.equal(0)
    f.deliver()
    expect(f.of('s-a', 'message.status').map((s) => s.status)).to.deep.equal(['sent', 'delivered', 'read'])
    expect(f.world.messages.inbox(B)[0]!.status).to.equal('read')
  })

  it('read: names the reader in groups', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    const group = f.world.groups.create(A, 'G', [jid(B)])
    const m = f.world.messages.send(A, { to: group.id, content: text('x') })
    f.world.actions.read(B, group.id, [m.id])
    f.deliver()
    expect(f.of('s-a', 'message.status').at(-1)).to.include({ status: 'read', participant: jid(B), chatId: group.id })
  })

  it('read: skips unknown ids, or refuses them with `Message not found` when strict', async () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('x') })
    expect(world.actions.read(B, jid(A), ['nope', m.id])).to.equal(1)
    expect(await caught(() => world.actions.read(B, jid(A), ['nope'], { strict: true }))).to.include({ code: 'MESSAGE_NOT_FOUND', message: 'Message not found' })
    expect(await caught(() => world.actions.read(B, jid(C), [m.id], { strict: true }))).to.include({ code: 'MESSAGE_NOT_FOUND' }, 'wrong chat')
    expect(await caught(() => world.actions.read(A, jid(B), [m.id], { strict: true }))).to.include({ code: 'MESSAGE_NOT_FOUND' }, 'own message')
  })

  it('react: everyone in the chat but the reacting device hears it; empty removes', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    f.device(B, 's-b')
    const m = f.world.messages.send(A, { to: jid(B), content: text('x') })
    f.world.actions.react(B, { id: m.id, chatId: jid(A) }, '👍', 's-b')
    f.deliver()
    expect(f.of('s-a', 'message.reaction')).to.deep.equal([{ messageId: m.id, chatId: jid(B), from: jid(B), reaction: '👍', timestampSec: Math.floor(T0 / 1000) }])
    expect(f.of('s-b', 'message.reaction')).to.deep.equal([])
    expect(f.world.messages.inbox(B)[0]!.reactions).to.deep.equal([{ from: jid(B), emoji: '👍' }])
    f.world.actions.react(B, { id: m.id, chatId: jid(A) }, '')
    f.deliver()
    expect(f.of('s-a', 'message.reaction').at(-1)!.reaction).to.equal('')
    expect(f.world.messages.inbox(B)[0]).to.not.have.property('reactions')
  })

  it('edit: the sender edits a text; others get message.edited and see the new text', async () => {
    const f = makeWorld()
    f.device(B, 's-b')
    const m = f.world.messages.send(A, { to: jid(B), content: text('teh') })
    f.world.actions.edit(A, { id: m.id, chatId: jid(B) }, 'the')
    f.deliver()
    expect(f.of('s-b', 'message.edited')).to.deep.equal([{ messageId: m.id, chatId: jid(A), text: 'the', timestampSec: Math.floor(T0 / 1000) }])
    expect(f.world.messages.inbox(B)[0]).to.include({ text: 'the', edited: true })
  })

  it('edit: refuses others\' messages and non-texts with `Message cannot be edited (too old or not sent by you)`', async () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('mine') })
    const img = world.messages.send(A, { to: jid(B), content: { type: 'image', media: { data: Buffer.from('x'), mimetype: 'image/jpeg' } } })
    for (const op of [() => world.actions.edit(B, { id: m.id, chatId: jid(A) }, 'hacked'), () => world.actions.edit(A, { id: img.id, chatId: jid(B) }, 'x')]) {
      expect(await caught(op)).to.include({ code: 'MESSAGE_NOT_EDITABLE', message: 'Message cannot be edited (too old or not sent by you)' })
    }
  })

  it('revoke: the sender deletes for everyone; fromMe tells each side', () => {
    const f = makeWorld()
    f.device(A, 's-a')
    f.device(B, 's-b')
    const m = f.world.messages.send(A, { to: jid(B), content: text('oops') })
    f.world.actions.revoke(A, { id: m.id, chatId: jid(B) })
    f.world.actions.revoke(A, { id: m.id, chatId: jid(B) })
    f.deliver()
    expect(f.of('s-b', 'message.revoked')).to.deep.equal([{ messageId: m.id, chatId: jid(A), fromMe: false, timestampSec: Math.floor(T0 / 1000) }])
    expect(f.of('s-a', 'message.revoked')[0]!.fromMe).to.equal(true)
    const entry = f.world.messages.inbox(B)[0]!
    expect(entry).to.include({ revoked: true }).and.not.have.property('text')
  })

  it("revoke: refuses others' messages, except to a group admin", async () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('x') })
    expect(await caught(() => world.actions.revoke(B, { id: m.id, chatId: jid(A) }))).to.include({
      code: 'MESSAGE_NOT_DELETABLE',
      message: 'Message cannot be deleted (too old or not sent by you)',
    })
    const group = world.groups.create(A, 'G', [jid(B), jid(C)])
    const g = world.messages.send(B, { to: group.id, content: text('spam') })
    expect(await caught(() => world.actions.revoke(C, { id: g.id, chatId: group.id }))).to.include({ code: 'MESSAGE_NOT_DELETABLE' })
    world.actions.revoke(A, { id: g.id, chatId: group.id })
    expect(world.messages.inbox(C)[0]).to.include({ revoked: true })
  })

  it('react and media refuse deleted messages with `Message not found`', async () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: { type: 'image', media: { data: Buffer.from('x'), mimetype: 'image/jpeg' } } })
    world.actions.revoke(A, { id: m.id, chatId: jid(B) })
    expect(await caught(() => world.actions.react(B, { id: m.id, chatId: jid(A) }, '👍'))).to.include({ code: 'MESSAGE_NOT_FOUND' })
    expect(await caught(() => world.actions.media(B, { id: m.id, chatId: jid(A) }))).to.include({ code: 'MESSAGE_NOT_FOUND' })
  })

  it('media of a text is `Message not found`; so is a message the account cannot see', async () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('x') })
    expect(await caught(() => world.actions.media(B, { id: m.id, chatId: jid(A) }))).to.include({ code: 'MESSAGE_NOT_FOUND' })
    expect(await caught(() => world.actions.react(C, { id: m.id, chatId: jid(A) }, '👍'))).to.include({ code: 'MESSAGE_NOT_FOUND' })
  })

  it('pin lasts its duration; star is personal', async () => {
    const { world, clock } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('x') })
    world.actions.pin(A, { id: m.id, chatId: jid(B) }, 60)
    world.actions.star(B, { id: m.id, chatId: jid(A) }, true)
    expect(world.messages.inbox(B)[0]).to.include({ pinned: true, starred: true })
    await clock.tick(61_000)
    expect(world.messages.inbox(B)[0]).to.not.have.property('pinned')
    world.actions.pin(A, { id: m.id, chatId: jid(B) }, 60)
    world.actions.unpin(B, { id: m.id, chatId: jid(A) })
    world.actions.star(B, { id: m.id, chatId: jid(A) }, false)
    expect(world.messages.inbox(B)[0]).to.not.have.any.keys('pinned', 'starred')
  })

  it('finds a message by the LID form of the chat', () => {
    const { world } = makeWorld()
    const m = world.messages.send(A, { to: jid(B), content: text('x') })
    const lid = world.accounts.get(A).lid
    expect(world.messages.find(B, { id: m.id, chatId: lid }).id).to.equal(m.id)
  })
})
