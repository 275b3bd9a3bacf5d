import { expect } from 'chai'
import type { Json } from './support/api.js'
import { createAccount, linkedSession, type TestSession } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'
import { WebhookReceiver } from './support/webhook-receiver.js'
import { waitFor } from './support/wait.js'

const ME = '15550002001'
const BOB = '15550002002'
const CAROL = '15550002003'
const STRANGER = '15550002999'
const jid = (phone: string): string => `${phone}@s.whatsapp.net`

describe('e2e: messaging', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e
  let hooks: WebhookReceiver
  let session: TestSession

  before(async () => {
    e2e = await startE2e()
    hooks = await WebhookReceiver.start()
    await createAccount(e2e, BOB, 'Bob')
    await createAccount(e2e, CAROL, 'Carol')
    session = await linkedSession(e2e, ME, { webhookUrl: hooks.url() })
  })

  after(async () => {
    await e2e.close()
    await hooks.close()
  })

  const send = (body: Json) => session.api.post(`/sessions/${session.id}/send`, body)
  const statuses = (messageId: string): string[] =>
    hooks
      .events(session.id)
      .filter((e) => e.event === 'message_status' && e.statusUpdate.messageId === messageId)
      .map((e) => String(e.statusUpdate.status))
  const inbox = async (phone: string): Promise<Json[]> =>
    (await e2e.admin.get(`/sandbox/accounts/${phone}/messages`)).body.messages as Json[]

  it('sends a text to a number, a +number and a JID; each lands in the inbox with sent then delivered', async () => {
    const ids: string[] = []
    for (const to of [BOB, `+${BOB}`, jid(BOB)]) {
      const reply = await send({ to, text: `hello via ${to}` })
      expect(reply.status, reply.text).to.equal(200)
      expect(reply.body).to.include({ success: true, to: jid(BOB), type: 'text', status: 'sent' })
      expect(reply.body.messageId).to.be.a('string').and.not.equal('')
      expect(reply.body.timestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      ids.push(reply.body.messageId as string)
    }
    const received = await inbox(BOB)
    expect(received.map((m) => m.id)).to.deep.equal(ids)
    expect(received.map((m) => m.text)).to.deep.equal([`hello via ${BOB}`, `hello via +${BOB}`, `hello via ${jid(BOB)}`])
    expect(received[0]).to.include({ from: jid(ME), chatId: jid(ME), type: 'conversation', status: 'delivered' })

    for (const id of ids) await waitFor(() => statuses(id).includes('delivered'), { clock: e2e.clock, what: `delivered ${id}` })
    for (const id of ids) expect(statuses(id)).to.deep.equal(['sent', 'delivered'])
    const update = hooks.events(session.id).find((e) => e.event === 'message_status')!
    expect(update.statusUpdate).to.include({ messageId: ids[0], chatId: jid(BOB) })
    expect(update.statusUpdate.timestamp).to.be.a('number')

    const read = await e2e.admin.post(`/sandbox/accounts/${BOB}/read`, { chatId: ME, messageIds: [ids[0]] })
    expect(read.body).to.deep.equal({ success: true })
    await waitFor(() => statuses(ids[0]!).includes('read'), { clock: e2e.clock, what: 'read' })
    expect(statuses(ids[0]!)).to.deep.equal(['sent', 'delivered', 'read'])
  })

  it('receives a text from an account as a message webhook with the spec fields, and replies quoting it', async () => {
    const sent = await e2e.admin.post(`/sandbox/accounts/${CAROL}/messages`, { to: ME, text: 'hi from Carol' })
    expect(sent.status).to.equal(201)
    const messageId = sent.body.messageId as string
    const event = await hooks.waitForEvent((e) => e.event === 'message' && e.message.id === messageId, { clock: e2e.clock })
    expect(event.sessionId).to.equal(session.id)
    expect(event.timestamp).to.match(/Z$/)
    expect(event.message).to.include({
      id: messageId,
      from: jid(CAROL),
      to: jid(ME),
      body: 'hi from Carol',
      type: 'conversation',
      hasMedia: false,
      fromMe: false,
      isGroup: false,
    })
    expect(event.message.timestamp).to.equal(Math.floor(e2e.clock.now() / 1000))

    const reply = await send({ to: CAROL, text: 'got it', quotedMessageId: messageId })
    expect(reply.status, reply.text).to.equal(200)
    const last = (await inbox(CAROL)).at(-1)!
    expect(last).to.include({ id: reply.body.messageId, text: 'got it', quotedMessageId: messageId })
    expect(last.type).to.equal('extendedTextMessage')

    const unknownQuote = await send({ to: CAROL, text: 'x', quotedMessageId: 'NOPE' })
    expect(unknownQuote.status).to.equal(404)
    expect(unknownQuote.body).to.deep.equal({ success: false, error: 'Message not found' })
  })

  it('refuses unregistered numbers, too long texts and invalid bodies with the exact texts', async () => {
    const stranger = await send({ to: STRANGER, text: 'hello?' })
    expect(stranger.status).to.equal(404)
    expect(stranger.body).to.deep.equal({ success: false, error: 'Number is not registered on WhatsApp' })

    const long = await send({ to: BOB, text: 'x'.repeat(65_537) })
    expect(long.status).to.equal(400)
    expect(long.body).to.deep.equal({ success: false, error: 'Message text exceeds maximum length' })
    const longest = await send({ to: BOB, text: 'x'.repeat(65_536) })
    expect(longest.status).to.equal(200)

    const noText = await send({ to: BOB })
    expect(noText.status).to.equal(400)
    expect(noText.body).to.deep.equal({ success: false, error: 'text is required' })
    const noTo = await send({ text: 'hi' })
    expect(noTo.status).to.equal(400)
    expect(noTo.body.error).to.match(/^to /)
    const badNumber = await send({ to: '12', text: 'hi' })
    expect(badNumber.status).to.equal(400)
    expect(badNumber.body.error).to.equal('Invalid phone number format')
    const malformed = await session.api.post(`/sessions/${session.id}/send`, undefined, { rawBody: '{"to":' })
    expect(malformed.status).to.equal(400)
    expect(malformed.body).to.deep.equal({ success: false, error: 'Invalid JSON body' })
  })

  it('checks numbers and lists contacts and chats', async () => {
    const yes = await session.api.get(`/sessions/${session.id}/check-number/${BOB}`)
    expect(yes.body).to.deep.equal({ success: true, exists: true, jid: jid(BOB) })
    const no = await session.api.get(`/sessions/${session.id}/check-number/${STRANGER}`)
    expect(no.body).to.deep.equal({ success: true, exists: false, jid: jid(STRANGER) })

    const chats = (await session.api.get(`/sessions/${session.id}/chats`)).body.chats as Json[]
    const ids = chats.map((c) => c.id)
    expect(ids).to.include.members([jid(BOB), jid(CAROL)])
    const carol = chats.find((c) => c.id === jid(CAROL))!
    expect(carol).to.include({ isGroup: false, name: 'Carol' })
    expect(carol.unreadCount).to.be.a('number')
    expect(carol.timestamp).to.be.a('number')

    const contacts = (await session.api.get(`/sessions/${session.id}/contacts`)).body.contacts as Json[]
    const entry = contacts.find((c) => c.id === jid(CAROL))
    expect(entry).to.include({ phone: CAROL })
    expect(entry).to.have.property('verifiedName')
    expect(entry?.name || entry?.notify).to.equal('Carol')
  })
})
