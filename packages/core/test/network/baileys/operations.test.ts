import { Boom } from '@hapi/boom'
import { expect } from 'chai'
import { hasErrorCode } from '../../../src/errors/index.js'
import type { MessageRef } from '../../../src/network/types.js'
import { fixture } from './support/fixtures.js'
import { ALICE, BOB, GROUP, ME, openLinked, SESSION, setup, type Harness } from './support/setup.js'
import type { FakeSocket } from './support/fake-socket.js'

const fail = (statusCode: number, message = 'error') => async () => {
  throw new Boom(message, { statusCode })
}
const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e as { code?: string }).code)

async function linked(): Promise<{ h: Harness; socket: FakeSocket }> {
  const h = setup()
  return { h, socket: await openLinked(h) }
}

/** A received message as the gateway recorded it (raw is the stored JSON). */
async function receivedRef(h: Harness, socket: FakeSocket, index = 0): Promise<MessageRef> {
  socket.emit('messages.upsert', fixture('messages-inbound-pn.json').upsert)
  await h.settle()
  const m = h.of('message.received')[index]!.message
  return { id: m.id, chatId: m.chatId, fromMe: false, timestampSec: m.timestampSec, raw: JSON.parse(JSON.stringify(m.raw)) }
}

describe('BaileysDriver message operations', () => {
  const own: MessageRef = { id: 'OWN1', chatId: ALICE.pn, fromMe: true, timestampSec: 1769850000 }

  it('reacts, edits, revokes, pins and unpins with the message key', async () => {
    const { h, socket } = await linked()
    await h.driver.message(SESSION, { op: 'react', message: own, emoji: '🔥' })
    await h.driver.message(SESSION, { op: 'edit', message: own, text: 'fixed' })
    await h.driver.message(SESSION, { op: 'revoke', message: own })
    await h.driver.message(SESSION, { op: 'pin', message: own, durationSec: 3600 })
    await h.driver.message(SESSION, { op: 'pin', message: own, durationSec: 9_000_000 })
    await h.driver.message(SESSION, { op: 'unpin', message: own })
    const key = { remoteJid: ALICE.pn, id: 'OWN1', fromMe: true }
    expect(socket.callsOf('sendMessage').map(([jid, content]) => [jid, content])).to.deep.equal([
      [ALICE.pn, { react: { text: '🔥', key } }],
      [ALICE.pn, { text: 'fixed', edit: key }],
      [ALICE.pn, { delete: key }],
      [ALICE.pn, { pin: key, type: 1, time: 86400 }],
      [ALICE.pn, { pin: key, type: 1, time: 2592000 }],
      [ALICE.pn, { pin: key, type: 2 }],
    ])
  })

  it('uses the recorded key (LID addressing kept) when the ref carries raw', async () => {
    const { h, socket } = await linked()
    socket.emit('messages.upsert', fixture('messages-inbound-lid.json').notify)
    await h.settle()
    const m = h.of('message.received')[0]!.message
    await h.driver.message(SESSION, { op: 'react', message: { id: m.id, chatId: m.chatId, fromMe: false, raw: m.raw }, emoji: '👍' })
    const [jid, content] = (socket.callsOf('sendMessage') as [string, { react: { key: Record<string, unknown> } }][])[0]!
    expect(jid).to.equal(ALICE.lid)
    expect(content.react.key).to.deep.include({ remoteJid: ALICE.lid, id: m.id, fromMe: false })
  })

  it("refuses to edit others' messages and to delete others' messages outside groups", async () => {
    const { h } = await linked()
    const theirs: MessageRef = { id: 'T1', chatId: ALICE.pn, fromMe: false }
    const edit = await h.driver.message(SESSION, { op: 'edit', message: theirs, text: 'x' }).catch((e: unknown) => e)
    expect(hasErrorCode(edit, 'MESSAGE_NOT_EDITABLE')).to.equal(true)
    expect((edit as Error).message).to.equal('Message cannot be edited (too old or not sent by you)')
    const revoke = await h.driver.message(SESSION, { op: 'revoke', message: theirs }).catch((e: unknown) => e)
    expect(hasErrorCode(revoke, 'MESSAGE_NOT_DELETABLE')).to.equal(true)
    expect(await codeOf(h.driver.message(SESSION, { op: 'revoke', message: { id: 'G1', chatId: GROUP, fromMe: false, participant: BOB.pn } }))).to.equal('resolved')
  })

  it('stars one message per call', async () => {
    const { h, socket } = await linked()
    await h.driver.message(SESSION, { op: 'star', message: own, star: true })
    expect(socket.callsOf('star')).to.deep.equal([[ALICE.pn, [{ id: 'OWN1', fromMe: true }], true]])
  })
})

describe('BaileysDriver chat operations', () => {
  it('archives, unarchives, marks unread and deletes with the newest recorded message as lastMessages', async () => {
    const { h, socket } = await linked()
    const refs: MessageRef[] = [
      { id: 'OLD', chatId: ALICE.pn, fromMe: false, timestampSec: 100 },
      { id: 'NEW', chatId: ALICE.pn, fromMe: true, timestampSec: 200 },
      { id: 'NOTS', chatId: ALICE.pn, fromMe: true },
    ]
    for (const op of ['archive', 'unarchive', 'markUnread', 'delete'] as const) {
      await h.driver.chat(SESSION, { op, chatId: ALICE.pn, lastMessages: refs })
    }
    const last = [{ key: { remoteJid: ALICE.pn, id: 'NEW', fromMe: true }, messageTimestamp: 200 }]
    expect(socket.callsOf('chatModify')).to.deep.equal([
      [{ archive: true, lastMessages: last }, ALICE.pn],
      [{ archive: false, lastMessages: last }, ALICE.pn],
      [{ markRead: false, lastMessages: last }, ALICE.pn],
      [{ delete: true, lastMessages: last }, ALICE.pn],
    ])
  })

  it('sends presence and read receipts (never for our own messages)', async () => {
    const { h, socket } = await linked()
    for (const state of ['composing', 'recording', 'paused'] as const) await h.driver.chat(SESSION, { op: 'presence', chatId: ALICE.pn, state })
    expect(socket.callsOf('sendPresenceUpdate')).to.deep.equal([
      ['composing', ALICE.pn],
      ['recording', ALICE.pn],
      ['paused', ALICE.pn],
    ])
    await h.driver.chat(SESSION, {
      op: 'read',
      chatId: GROUP,
      messages: [
        { id: 'M1', chatId: GROUP, fromMe: false, participant: BOB.pn },
        { id: 'M2', chatId: GROUP, fromMe: true },
      ],
    })
    expect(socket.callsOf('readMessages')).to.deep.equal([[[{ remoteJid: GROUP, id: 'M1', fromMe: false, participant: BOB.pn }]]])
  })

  it('reports a missing app-state key as temporarily unavailable', async () => {
    const { h, socket } = await linked()
    socket.answers.chatModify = fail(400, 'App state key not present!')
    expect(await codeOf(h.driver.chat(SESSION, { op: 'archive', chatId: ALICE.pn, lastMessages: [] }))).to.equal('NETWORK_UNAVAILABLE')
  })
})

describe('BaileysDriver group operations', () => {
  it('reads metadata with participants as PN objects and caches it', async () => {
    const { h, socket } = await linked()
    socket.answers.groupMetadata = async () => fixture('groups.json').metadata
    const info = await h.driver.group(SESSION, { op: 'metadata', groupId: GROUP })
    expect(info).to.deep.equal({
      id: GROUP,
      name: 'Team',
      description: 'Our team',
      owner: ALICE.pn,
      announce: false,
      participants: [
        { id: ALICE.pn, lid: ALICE.lid, admin: 'superadmin' },
        { id: BOB.pn, lid: BOB.lid, admin: 'admin' },
        { id: ME.jid, lid: ME.lid, admin: null },
      ],
    })
    await h.driver.group(SESSION, { op: 'metadata', groupId: GROUP })
    expect(socket.callsOf('groupMetadata')).to.have.length(1)
  })

  it('creates, renames, describes, invites, revokes and leaves', async () => {
    const { h, socket } = await linked()
    const created = await h.driver.group(SESSION, { op: 'create', name: 'New', participants: [ALICE.pn] })
    expect(created).to.deep.include({ id: '120363040000000009@g.us', name: 'New', description: null, owner: ME.jid })
    await h.driver.group(SESSION, { op: 'subject', groupId: GROUP, name: 'Renamed' })
    await h.driver.group(SESSION, { op: 'description', groupId: GROUP, description: 'About' })
    await h.driver.group(SESSION, { op: 'description', groupId: GROUP, description: '' })
    expect(await h.driver.group(SESSION, { op: 'inviteCode', groupId: GROUP })).to.equal('InviteCode123')
    expect(await h.driver.group(SESSION, { op: 'revokeInvite', groupId: GROUP })).to.equal('NewInviteCode456')
    await h.driver.group(SESSION, { op: 'leave', groupId: GROUP })
    expect(socket.callsOf('groupUpdateSubject')).to.deep.equal([[GROUP, 'Renamed']])
    expect(socket.callsOf('groupUpdateDescription')).to.deep.equal([
      [GROUP, 'About'],
      [GROUP, undefined],
    ])
    expect(socket.callsOf('groupLeave')).to.deep.equal([[GROUP]])
  })

  it('maps participant results per participant', async () => {
    const { h, socket } = await linked()
    socket.answers.groupParticipantsUpdate = async () => fixture('groups.json').participantsUpdateAnswer
    const results = await h.driver.group(SESSION, {
      op: 'participants',
      groupId: GROUP,
      action: 'add',
      participants: ['15550005555@s.whatsapp.net', '15550006666@s.whatsapp.net', BOB.pn],
    })
    expect(results).to.deep.equal([
      { jid: '15550005555@s.whatsapp.net', status: 'success' },
      { jid: '15550006666@s.whatsapp.net', status: 'not-authorized' },
      { jid: BOB.pn, status: 'already-in-group' },
    ])
  })

  it('translates group errors: unknown group, not a participant, network down', async () => {
    const { h, socket } = await linked()
    expect(await codeOf(h.driver.group(SESSION, { op: 'metadata', groupId: GROUP }))).to.equal('GROUP_NOT_FOUND')
    socket.answers.groupUpdateSubject = fail(403, 'forbidden')
    expect(await codeOf(h.driver.group(SESSION, { op: 'subject', groupId: GROUP, name: 'x' }))).to.equal('GROUP_NOT_FOUND')
    socket.answers.groupLeave = fail(408, 'Timed Out')
    expect(await codeOf(h.driver.group(SESSION, { op: 'leave', groupId: GROUP }))).to.equal('NETWORK_UNAVAILABLE')
    socket.answers.groupInviteCode = async () => undefined
    expect(await codeOf(h.driver.group(SESSION, { op: 'inviteCode', groupId: GROUP }))).to.equal('GROUP_NOT_FOUND')
  })
})

describe('BaileysDriver profile and contact operations', () => {
  it('gets the own profile (about via the v7 fetchStatus shape, picture URL)', async () => {
    const { h, socket } = await linked()
    socket.answers.fetchStatus = async () => [{ id: ME.jid, status: { status: 'Busy', setAt: new Date('2026-01-01T00:00:00Z') } }]
    socket.answers.profilePictureUrl = async () => 'https://pps.whatsapp.net/me.jpg'
    expect(await h.driver.profile(SESSION, { op: 'get' })).to.deep.equal({
      id: ME.jid,
      name: 'Test Phone',
      phone: ME.phoneNumber,
      profilePicture: 'https://pps.whatsapp.net/me.jpg',
      status: 'Busy',
    })
    expect(socket.callsOf('profilePictureUrl')).to.deep.equal([[ME.jid, 'image']])
  })

  it('sets name, status and picture (bytes), removes the picture; long names are refused', async () => {
    const { h, socket } = await linked()
    await h.driver.profile(SESSION, { op: 'setName', name: 'New name' })
    await h.driver.profile(SESSION, { op: 'setStatus', status: 'Away' })
    await h.driver.profile(SESSION, { op: 'setPicture', image: { data: Buffer.from([9]), mimetype: 'image/jpeg' } })
    await h.driver.profile(SESSION, { op: 'removePicture' })
    expect(socket.callsOf('updateProfileName')).to.deep.equal([['New name']])
    expect(socket.callsOf('updateProfileStatus')).to.deep.equal([['Away']])
    expect(socket.callsOf('updateProfilePicture')).to.deep.equal([[ME.jid, Buffer.from([9])]])
    expect(socket.callsOf('removeProfilePicture')).to.deep.equal([[ME.jid]])
    expect(await codeOf(h.driver.profile(SESSION, { op: 'setName', name: 'x'.repeat(26) }))).to.equal('NAME_TOO_LONG')
    socket.answers.updateProfilePicture = async () => {
      throw new Error('Input buffer contains unsupported image format')
    }
    expect(await codeOf(h.driver.profile(SESSION, { op: 'setPicture', image: { data: Buffer.from([0]), mimetype: 'image/jpeg' } }))).to.equal('INVALID_IMAGE')
  })

  it('answers Not authenticated for profile and contact calls on a session that is not open', async () => {
    const h = setup()
    const err = await h.driver.profile(SESSION, { op: 'get' }).catch((e: unknown) => e)
    expect(hasErrorCode(err, 'NOT_AUTHENTICATED')).to.equal(true)
    expect((err as Error).message).to.equal('Not authenticated')
    expect(await codeOf(h.driver.contact(SESSION, { op: 'about', jid: ALICE.pn }))).to.equal('NOT_AUTHENTICATED')
  })

  it('blocks and unblocks after resolving the LID (usync when unknown, table when known)', async () => {
    const { h, socket } = await linked()
    socket.lids.set(ALICE.pn, ALICE.lid)
    await h.driver.contact(SESSION, { op: 'block', jid: ALICE.pn })
    await h.driver.contact(SESSION, { op: 'unblock', jid: ALICE.pn })
    expect(socket.callsOf('updateBlockStatus')).to.deep.equal([
      [ALICE.pn, 'block'],
      [ALICE.pn, 'unblock'],
    ])
    expect(h.of('identity.mapping').flatMap((e) => e.mappings)).to.deep.equal([{ lid: ALICE.lid, pn: ALICE.pn }])
    expect(await codeOf(h.driver.contact(SESSION, { op: 'block', jid: '15550004444@s.whatsapp.net' }))).to.equal('CONTACT_NOT_FOUND')
    socket.answers.updateBlockStatus = fail(400, 'Unable to resolve LID for PN JID: 15550002222@s.whatsapp.net')
    expect(await codeOf(h.driver.contact(SESSION, { op: 'block', jid: ALICE.pn }))).to.equal('CONTACT_NOT_FOUND')
  })

  it('returns the about text and setAt (seconds); hidden or empty abouts are null', async () => {
    const { h, socket } = await linked()
    socket.answers.fetchStatus = async () => [{ id: ALICE.pn, status: { status: 'Hey there', setAt: new Date('2026-01-02T03:04:05Z') } }]
    expect(await h.driver.contact(SESSION, { op: 'about', jid: ALICE.pn })).to.deep.equal({ about: 'Hey there', setAt: 1767323045 })
    socket.answers.fetchStatus = async () => [{ id: ALICE.pn, status: { status: '', setAt: new Date(0) } }]
    expect(await h.driver.contact(SESSION, { op: 'about', jid: ALICE.pn })).to.deep.equal({ about: null, setAt: null })
    socket.answers.fetchStatus = async () => undefined
    expect(await h.driver.contact(SESSION, { op: 'about', jid: ALICE.pn })).to.deep.equal({ about: null, setAt: null })
  })

  it('returns picture URLs, null when absent or hidden by privacy', async () => {
    const { h, socket } = await linked()
    socket.answers.profilePictureUrl = async () => 'https://pps.whatsapp.net/a.jpg'
    expect(await h.driver.contact(SESSION, { op: 'picture', jid: ALICE.pn })).to.equal('https://pps.whatsapp.net/a.jpg')
    for (const [code, text] of [
      [401, 'not-authorized'],
      [404, 'item-not-found'],
      [403, 'forbidden'],
    ] as const) {
      socket.answers.profilePictureUrl = fail(code, text)
      expect(await h.driver.contact(SESSION, { op: 'picture', jid: ALICE.pn })).to.equal(null)
    }
    socket.answers.profilePictureUrl = async () => undefined
    expect(await h.driver.contact(SESSION, { op: 'picture', jid: ALICE.pn })).to.equal(null)
    socket.answers.profilePictureUrl = fail(500, 'internal-server-error')
    expect(await codeOf(h.driver.contact(SESSION, { op: 'picture', jid: ALICE.pn }))).to.equal('NETWORK_UNAVAILABLE')
  })

  it('checks numbers: absence from onWhatsApp means not registered; the LID is given when known', async () => {
    const { h, socket } = await linked()
    socket.emit('lid-mapping.update', { lid: ALICE.lid, pn: ALICE.pn })
    await h.settle()
    socket.answers.onWhatsApp = async () => [{ jid: ALICE.pn, exists: true }]
    expect(await h.driver.contact(SESSION, { op: 'check', phones: ['+1 555 000 2222', '15550004444'] })).to.deep.equal([
      { phone: '+1 555 000 2222', exists: true, jid: ALICE.pn, lid: ALICE.lid },
      { phone: '15550004444', exists: false, jid: '15550004444@s.whatsapp.net' },
    ])
    expect(socket.callsOf('onWhatsApp')).to.deep.equal([['15550002222', '15550004444']])
  })
})

describe('BaileysDriver.downloadMedia()', () => {
  it('downloads the media of a recorded message as bytes with its mimetype and file name', async () => {
    const seen: unknown[] = []
    const h = setup({
      downloadMedia: (async (message: { key: { id: string } }) => {
        seen.push(message.key.id)
        return Buffer.from('pdf-bytes')
      }) as never,
    })
    const socket = await openLinked(h)
    const ref = await receivedRef(h, socket, 5)
    expect(await h.driver.downloadMedia(SESSION, ref)).to.deep.equal({ data: Buffer.from('pdf-bytes'), mimetype: 'application/pdf', filename: 'invoice.pdf' })
    expect(seen).to.deep.equal(['3EB0PN0000000006'])
  })

  it('asks the phone to re-upload on 404/410, then retries once', async () => {
    let attempts = 0
    const h = setup({
      downloadMedia: (async () => {
        attempts += 1
        if (attempts === 1) throw new Boom('Failed to fetch stream', { statusCode: 410 })
        return Buffer.from('image')
      }) as never,
    })
    const socket = await openLinked(h)
    const ref = await receivedRef(h, socket, 2)
    const media = await h.driver.downloadMedia(SESSION, ref)
    expect(media).to.deep.equal({ data: Buffer.from('image'), mimetype: 'image/jpeg' })
    expect(socket.callsOf('updateMediaMessage')).to.have.length(1)
    expect(attempts).to.equal(2)
  })

  it('fails with Message not found for refs without media, and translates other download errors', async () => {
    const h = setup({ downloadMedia: (async () => Promise.reject(new Boom('boom', { statusCode: 503 }))) as never })
    const socket = await openLinked(h)
    expect(await codeOf(h.driver.downloadMedia(SESSION, { id: 'X', chatId: ALICE.pn, fromMe: false }))).to.equal('MESSAGE_NOT_FOUND')
    const text = await receivedRef(h, socket, 0)
    expect(await codeOf(h.driver.downloadMedia(SESSION, text))).to.equal('MESSAGE_NOT_FOUND')
    const image = h.of('message.received')[2]!.message
    expect(await codeOf(h.driver.downloadMedia(SESSION, { id: image.id, chatId: image.chatId, fromMe: false, raw: image.raw }))).to.equal('NETWORK_UNAVAILABLE')
  })
})
