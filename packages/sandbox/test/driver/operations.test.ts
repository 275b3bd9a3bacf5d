import { expect } from 'chai'
import { T0 } from '@switchboard/core/testing'
import { A, B, C, caught, jid, setup } from '../support/setup.js'

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])

describe('sandbox driver: operations', () => {
  it('refuses work on a session that is not open, with the spec texts', async () => {
    const t = await setup()
    const send = () => t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'x' } })
    expect(await caught(send)).to.include({
      code: 'SESSION_NOT_AUTHENTICATED',
      message: 'Session not authenticated. Please scan the QR code first using GET /sessions/s1/qr',
    })
    expect(await caught(() => t.driver.profile('s1', { op: 'get' }))).to.include({ code: 'NOT_AUTHENTICATED', message: 'Not authenticated' })
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(1000)
    await t.sandbox.scan(A, t.events.lastQr('s1'))
    expect(await caught(send)).to.include({ code: 'SESSION_CONNECTING' })
  })

  it('send: answers id, recipient and time; sent and delivered arrive by the time it resolves', async () => {
    const t = await setup()
    await t.link('s1')
    await t.clock.tick(5000)
    const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'hi' } })
    expect(sent).to.deep.equal({ id: sent.id, to: jid(B), timestampMs: t.clock.now() })
    expect(t.events.of('message.status', 's1').map((s) => [s.messageId, s.status])).to.deep.equal([
      [sent.id, 'sent'],
      [sent.id, 'delivered'],
    ])
    await t.sandbox.read(B, A, [sent.id])
    expect(t.events.of('message.status', 's1').at(-1)).to.deep.equal({
      sessionId: 's1',
      messageId: sent.id,
      chatId: jid(B),
      status: 'read',
      timestampSec: Math.floor(t.clock.now() / 1000),
    })
  })

  it('send accepts a LID recipient and answers the PN JID', async () => {
    const t = await setup()
    await t.link('s1')
    const lid = (await t.sandbox.accounts.get(B)).lid
    const sent = await t.driver.send('s1', { to: lid, content: { type: 'text', text: 'hi' } })
    expect(sent.to).to.equal(jid(B))
  })

  it('media: the account receives it, and the session downloads media it received', async () => {
    const t = await setup()
    await t.link('s1')
    const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'image', media: { data: JPEG, mimetype: 'image/jpeg' }, caption: 'pic' } })
    expect((await t.sandbox.inbox(B))[0]).to.include({ id: sent.id, type: 'imageMessage', caption: 'pic', mimetype: 'image/jpeg' })
    const { messageId } = await t.sandbox.sendAs(B, {
      to: A,
      content: { type: 'audio', media: { data: Buffer.from('OggS'), mimetype: 'audio/ogg; codecs=opus' }, ptt: true },
    })
    const received = t.events.of('message.received', 's1').find((e) => e.message.id === messageId)!.message
    expect(received).to.deep.include({ type: 'audioMessage', body: '', media: { mimetype: 'audio/ogg; codecs=opus', sizeBytes: 4 } })
    const media = await t.driver.downloadMedia('s1', { id: messageId, chatId: jid(B), fromMe: false })
    expect(media.data.toString()).to.equal('OggS')
    expect(await caught(() => t.driver.downloadMedia('s1', { id: 'nope', chatId: jid(B), fromMe: false }))).to.include({ code: 'MESSAGE_NOT_FOUND' })
  })

  it('a second session of the same account sees the first one\'s sends as fromMe', async () => {
    const t = await setup()
    await t.link('s1')
    await t.link('s2')
    const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'from s1' } })
    expect(t.events.of('message.received', 's2').map((e) => e.message)).to.deep.equal([
      {
        id: sent.id,
        chatId: jid(B),
        from: jid(A),
        fromLid: (await t.sandbox.accounts.get(A)).lid,
        to: jid(B),
        fromMe: true,
        isGroup: false,
        pushName: 'Sandbox 15550001111',
        type: 'conversation',
        body: 'from s1',
        timestampSec: Math.floor(t.clock.now() / 1000),
      },
    ])
    expect(t.events.of('message.received', 's1')).to.deep.equal([])
  })

  it('what the phone itself sends reaches its linked sessions as fromMe', async () => {
    const t = await setup()
    await t.link('s1')
    await t.sandbox.sendAs(A, { to: B, text: 'typed on the phone' })
    expect(t.events.of('message.received', 's1')[0]!.message).to.include({ fromMe: true, chatId: jid(B), body: 'typed on the phone' })
  })

  it('message ops act as the account; the peer hears edits, deletes and reactions', async () => {
    const t = await setup()
    await t.link('s1')
    await t.link('s2', B)
    const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'v1' } })
    const ref = { id: sent.id, chatId: jid(B), fromMe: true }
    await t.driver.message('s1', { op: 'edit', message: ref, text: 'v2' })
    await t.driver.message('s1', { op: 'react', message: ref, emoji: '🔥' })
    await t.driver.message('s1', { op: 'star', message: ref, star: true })
    await t.driver.message('s1', { op: 'pin', message: ref, durationSec: 86_400 })
    await t.driver.message('s1', { op: 'unpin', message: ref })
    await t.driver.message('s1', { op: 'revoke', message: ref })
    expect(t.events.of('message.edited', 's2').map((e) => e.text)).to.deep.equal(['v2'])
    expect(t.events.of('message.reaction', 's2').map((e) => [e.from, e.reaction])).to.deep.equal([[jid(A), '🔥']])
    expect(t.events.of('message.revoked', 's2').map((e) => [e.messageId, e.fromMe])).to.deep.equal([[sent.id, false]])
    const other = await t.driver.send('s2', { to: jid(A), content: { type: 'text', text: 'theirs' } })
    expect(await caught(() => t.driver.message('s1', { op: 'edit', message: { id: other.id, chatId: jid(B), fromMe: false }, text: 'x' }))).to.include({
      code: 'MESSAGE_NOT_EDITABLE',
    })
  })

  it('chat ops: archive, markUnread, delete, presence and read reach the world', async () => {
    const t = await setup()
    await t.link('s1')
    const { messageId } = await t.sandbox.sendAs(B, { to: A, text: 'hello' })
    const last = [{ id: messageId, chatId: jid(B), fromMe: false, timestampSec: Math.floor(T0 / 1000) }]
    await t.driver.chat('s1', { op: 'archive', chatId: jid(B), lastMessages: last })
    expect((await t.sandbox.chats(A))[0]).to.include({ archived: true })
    await t.driver.chat('s1', { op: 'unarchive', chatId: jid(B), lastMessages: last })
    await t.driver.chat('s1', { op: 'read', chatId: jid(B), messages: last })
    expect(t.events.of('message.status', 's1')).to.deep.equal([])
    expect((await t.sandbox.inbox(A))[0]!.status).to.equal('read')
    await t.driver.chat('s1', { op: 'markUnread', chatId: jid(B), lastMessages: last })
    expect((await t.sandbox.chats(A))[0]).to.include({ unreadCount: 1, archived: false })
    await t.driver.chat('s1', { op: 'presence', chatId: jid(B), state: 'recording' })
    expect((await t.sandbox.presence(B)).map((p) => [p.from, p.state])).to.deep.equal([[jid(A), 'recording']])
    await t.driver.chat('s1', { op: 'delete', chatId: jid(B), lastMessages: last })
    expect(await t.sandbox.chats(A)).to.deep.equal([])
  })

  it('group ops: members hear changes through their sessions', async () => {
    const t = await setup()
    await t.link('s1')
    await t.link('s2', B)
    const group = await t.driver.group('s1', { op: 'create', name: 'Crew', participants: [jid(B)] })
    expect(t.events.of('group.participants', 's2').map((e) => [e.action, e.participants])).to.deep.equal([['add', [jid(B)]]])
    await t.driver.group('s1', { op: 'subject', groupId: group.id, name: 'Crew 2' })
    await t.driver.group('s1', { op: 'description', groupId: group.id, description: 'We sail' })
    expect(t.events.of('group.update', 's2').map((e) => e.updates)).to.deep.equal([{ subject: 'Crew 2' }, { desc: 'We sail' }])
    expect(t.events.of('group.update', 's1')).to.have.length(2, 'the author hears it too')
    const code = await t.driver.group('s1', { op: 'inviteCode', groupId: group.id })
    expect(await t.driver.group('s1', { op: 'revokeInvite', groupId: group.id })).to.not.equal(code)
    expect(await caught(() => t.driver.group('s2', { op: 'inviteCode', groupId: group.id }))).to.include({ code: 'GROUP_ADMIN_REQUIRED' })
    await t.driver.group('s1', { op: 'participants', groupId: group.id, action: 'add', participants: [jid(C)] })
    await t.driver.group('s2', { op: 'leave', groupId: group.id })
    expect(t.events.of('group.participants', 's1').map((e) => [e.action, e.participants])).to.deep.equal([
      ['add', [jid(C)]],
      ['remove', [jid(B)]],
    ])
    const { messageId } = await t.sandbox.sendAs(C, { to: group.id, text: 'hi all' })
    expect(t.events.of('message.received', 's1').find((e) => e.message.id === messageId)!.message).to.include({
      chatId: group.id,
      to: group.id,
      from: jid(C),
      participant: jid(C),
      isGroup: true,
    })
  })

  it('profile and contact ops act for the linked account', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.profile('s1', { op: 'setName', name: 'Ann' })
    await t.driver.profile('s1', { op: 'setStatus', status: 'Here' })
    await t.driver.profile('s1', { op: 'setPicture', image: { data: JPEG, mimetype: 'image/jpeg' } })
    const profile = await t.driver.profile('s1', { op: 'get' })
    expect(profile).to.include({ id: jid(A), name: 'Ann', phone: A, status: 'Here' })
    expect(await t.driver.contact('s1', { op: 'picture', jid: jid(B) })).to.equal(null)
    expect(await caught(() => t.driver.profile('s1', { op: 'setName', name: 'x'.repeat(26) }))).to.include({ code: 'NAME_TOO_LONG' })
    await t.driver.profile('s1', { op: 'removePicture' })
    expect((await t.driver.profile('s1', { op: 'get' })).profilePicture).to.equal(null)
    await t.driver.contact('s1', { op: 'block', jid: jid(B) })
    await t.sandbox.sendAs(B, { to: A, text: 'blocked?' })
    expect(t.events.of('message.received', 's1')).to.deep.equal([])
    await t.driver.contact('s1', { op: 'unblock', jid: jid(B) })
    expect(await t.driver.contact('s1', { op: 'about', jid: jid(B) })).to.deep.equal({ about: null, setAt: null })
    expect((await t.driver.contact('s1', { op: 'check', phones: [B] }))[0]).to.include({ exists: true })
  })

  it('calls ring the callee session, then time out after ringMs', async () => {
    const t = await setup({ ringMs: 30_000 })
    await t.link('s1')
    const { callId } = await t.sandbox.call(B, { to: A, isVideo: true })
    await t.clock.tick(30_000)
    expect(t.events.of('call', 's1').map((c) => [c.callId, c.status, c.isVideo, c.isGroup, c.from])).to.deep.equal([
      [callId, 'offer', true, false, jid(B)],
      [callId, 'timeout', true, false, jid(B)],
    ])
  })

  it('as(phone) runs port operations from the phone (groups, joins)', async () => {
    const t = await setup()
    await t.link('s1')
    const group = await t.sandbox.as(B).group({ op: 'create', name: 'From a phone', participants: [jid(A)] })
    expect(t.events.of('chats.upsert', 's1').some((e) => e.chats[0]?.id === group.id)).to.equal(true)
    const code = await t.sandbox.as(B).group({ op: 'inviteCode', groupId: group.id })
    await t.sandbox.as(C).joinGroup(code)
    expect((await t.sandbox.groups(C)).map((g) => g.id)).to.deep.equal([group.id])
    expect(t.events.of('group.participants', 's1').at(-1)).to.include({ action: 'add', author: jid(C) })
  })

  it('notices for a session that closed before delivery are queued for its next open', async () => {
    const t = await setup()
    await t.link('s1')
    const off = t.driver.on('chats.upsert', () => void t.driver.close('s1'))
    const group = await t.sandbox.as(B).group({ op: 'create', name: 'Race', participants: [jid(A)] })
    off()
    expect(t.events.of('group.participants', 's1')).to.deep.equal([])
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(200)
    expect(t.events.of('group.participants', 's1').map((e) => e.groupId)).to.deep.equal([group.id])
  })
})
