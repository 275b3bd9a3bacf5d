import { expect } from 'chai'
import { SANDBOX_OPERATIONS, SANDBOX_ROUTES } from '../src/index.js'
import type { Sandbox } from '../src/index.js'
import { A, B, caught, jid, setup } from './support/setup.js'

type Ops = typeof SANDBOX_OPERATIONS
const run = <N extends keyof Ops>(sandbox: Sandbox, name: N, raw: Record<string, unknown>) =>
  (SANDBOX_OPERATIONS[name].run as (s: Sandbox, raw: unknown, call: object) => Promise<unknown>)(sandbox, raw, {})

describe('SANDBOX_OPERATIONS', () => {
  it('has one admin-only entry per control endpoint, each with a route under /sandbox/', () => {
    expect(Object.keys(SANDBOX_OPERATIONS).sort()).to.deep.equal(Object.keys(SANDBOX_ROUTES).sort())
    expect(Object.keys(SANDBOX_OPERATIONS)).to.have.length(10)
    for (const [name, op] of Object.entries(SANDBOX_OPERATIONS)) {
      expect(op.access, name).to.equal('admin')
      expect(op.summary, name).to.be.a('string').and.not.equal('')
    }
    expect(Object.values(SANDBOX_ROUTES).map((r) => `${r.method} ${r.path}`)).to.deep.equal([
      'POST /sandbox/accounts',
      'GET /sandbox/accounts',
      'POST /sandbox/accounts/:phone/scan',
      'POST /sandbox/accounts/:phone/link-code',
      'POST /sandbox/accounts/:phone/messages',
      'GET /sandbox/accounts/:phone/messages',
      'POST /sandbox/accounts/:phone/read',
      'POST /sandbox/accounts/:phone/react',
      'POST /sandbox/accounts/:phone/unlink',
      'POST /sandbox/sessions/:id/drop',
    ])
  })

  it('answers 201 for creating an account and sending; 200 otherwise', () => {
    const created = Object.entries(SANDBOX_OPERATIONS)
      .filter(([, op]) => 'successStatus' in op && op.successStatus === 201)
      .map(([name]) => name)
    expect(created).to.deep.equal(['sandbox.accounts.create', 'sandbox.accounts.send'])
  })

  it("every path parameter is a field of the operation's input", () => {
    for (const [name, route] of Object.entries(SANDBOX_ROUTES)) {
      const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)
      const shape = (SANDBOX_OPERATIONS[name as keyof Ops].input as unknown as { shape: Record<string, unknown> }).shape
      for (const param of params) expect(shape, `${name} :${param}`).to.have.property(param)
    }
  })

  describe('sandbox.accounts.create', () => {
    it('answers { account: { phoneNumber, jid, name } } with the default name', async () => {
      const t = await setup({ accounts: [] })
      expect(await run(t.sandbox, 'sandbox.accounts.create', { phoneNumber: '+1 555 000 1111' })).to.deep.equal({
        account: { phoneNumber: A, jid: jid(A), name: `Sandbox ${A}` },
      })
      expect(await run(t.sandbox, 'sandbox.accounts.create', { phoneNumber: B, name: 'Bob', about: 'Hi' })).to.deep.equal({
        account: { phoneNumber: B, jid: jid(B), name: 'Bob' },
      })
    })

    it('400 for a missing, invalid or existing number, with the exact texts', async () => {
      const t = await setup({ accounts: [A] })
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'phoneNumber is required'],
        [{ phoneNumber: 15550002222 }, 'phoneNumber must be a string'],
        [{ phoneNumber: '' }, 'phoneNumber must not be empty'],
        [{ phoneNumber: '12345' }, 'Invalid phone number format'],
        [{ phoneNumber: A }, 'Account already exists'],
        [{ phoneNumber: B, name: '' }, 'name must not be empty'],
      ]
      for (const [raw, message] of cases) {
        expect(await caught(() => run(t.sandbox, 'sandbox.accounts.create', raw)), message).to.include({ status: 400, message })
      }
    })
  })

  it('sandbox.accounts.list answers every account with its about text and sessions', async () => {
    const t = await setup({ accounts: [A, B] })
    await t.link('s1')
    expect(await run(t.sandbox, 'sandbox.accounts.list', { api_key: 'ignored' })).to.deep.equal({
      accounts: [
        { phoneNumber: A, jid: jid(A), name: `Sandbox ${A}`, about: null, sessions: ['s1'] },
        { phoneNumber: B, jid: jid(B), name: `Sandbox ${B}`, about: null, sessions: [] },
      ],
    })
  })

  describe('sandbox.accounts.scan and linkCode', () => {
    it('scan answers { sessionId } and links the session', async () => {
      const t = await setup()
      await t.driver.open('s1', { auth: t.auth('s1') })
      await t.clock.tick(1000)
      expect(await run(t.sandbox, 'sandbox.accounts.scan', { phone: A, qr: t.events.lastQr('s1') })).to.deep.equal({ sessionId: 's1' })
      await t.clock.tick(200)
      expect(t.events.states('s1').at(-1)).to.equal('open')
    })

    it('scan errors: `Invalid or expired QR code`, `Account not found`, `qr is required`', async () => {
      const t = await setup()
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.scan', { phone: A, qr: 'sandbox:s1:nope' }))).to.include({
        status: 400,
        message: 'Invalid or expired QR code',
      })
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.scan', { phone: '15550007777', qr: 'x' }))).to.include({
        status: 404,
        message: 'Account not found',
      })
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.scan', { phone: 'abc', qr: 'x' }))).to.include({
        status: 400,
        message: 'Invalid phone number format',
      })
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.scan', { phone: A }))).to.include({ status: 400, message: 'qr is required' })
    })

    it('linkCode answers { sessionId }; a wrong code is `Invalid or expired pairing code`', async () => {
      const t = await setup()
      await t.driver.open('s1', { auth: t.auth('s1') })
      await t.clock.tick(1000)
      const code = await t.driver.requestPairingCode('s1', A)
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.linkCode', { phone: A, code: 'ZZZZZZZZ' }))).to.include({
        status: 400,
        message: 'Invalid or expired pairing code',
      })
      expect(await run(t.sandbox, 'sandbox.accounts.linkCode', { phone: A, code })).to.deep.equal({ sessionId: 's1' })
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.linkCode', { phone: A }))).to.include({ message: 'code is required' })
    })
  })

  describe('sandbox.accounts.send and inbox', () => {
    it('send answers { messageId }; the session gets the message; the inbox lists received ones oldest first', async () => {
      const t = await setup()
      await t.link('s1')
      const { messageId } = (await run(t.sandbox, 'sandbox.accounts.send', { phone: B, to: `+${A}`, text: 'hello' })) as { messageId: string }
      expect(t.events.of('message.received', 's1')[0]!.message).to.include({ id: messageId, body: 'hello', from: jid(B) })
      const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'yo' } })
      const reply = (await run(t.sandbox, 'sandbox.accounts.send', { phone: B, to: jid(A), text: 're', quotedMessageId: sent.id })) as { messageId: string }
      expect(t.events.of('message.received', 's1')[1]!.message.quotedMessageId).to.equal(sent.id)
      expect(await run(t.sandbox, 'sandbox.accounts.inbox', { phone: B })).to.deep.equal({
        messages: [{ id: sent.id, chatId: jid(A), from: jid(A), to: jid(B), type: 'conversation', text: 'yo', timestamp: Math.floor(t.clock.now() / 1000), status: 'delivered' }],
      })
      expect(reply.messageId).to.be.a('string')
    })

    it('send errors: unregistered, invalid number, unknown quote, missing text', async () => {
      const t = await setup()
      const cases: [Record<string, unknown>, number, string][] = [
        [{ phone: B, to: '15550009999', text: 'x' }, 404, 'Number is not registered on WhatsApp'],
        [{ phone: B, to: '12', text: 'x' }, 400, 'Invalid phone number format'],
        [{ phone: B, to: 'x@example.com', text: 'x' }, 400, 'Invalid JID format'],
        [{ phone: B, to: A, text: 'x', quotedMessageId: 'nope' }, 404, 'Message not found'],
        [{ phone: B, to: A }, 400, 'text is required'],
        [{ phone: B, text: 'x' }, 400, 'to is required'],
        [{ phone: '15550007777', to: A, text: 'x' }, 404, 'Account not found'],
      ]
      for (const [raw, status, message] of cases) {
        expect(await caught(() => run(t.sandbox, 'sandbox.accounts.send', raw)), message).to.include({ status, message })
      }
    })

    it('inbox of an unknown account is `Account not found`', async () => {
      const t = await setup()
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.inbox', { phone: '15550007777' }))).to.include({ status: 404 })
    })
  })

  describe('sandbox.accounts.read and react', () => {
    it('read answers {} and the sending session gets read', async () => {
      const t = await setup()
      await t.link('s1')
      const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'x' } })
      expect(await run(t.sandbox, 'sandbox.accounts.read', { phone: B, chatId: A, messageIds: [sent.id] })).to.deep.equal({})
      expect(t.events.of('message.status', 's1').at(-1)).to.include({ messageId: sent.id, status: 'read' })
    })

    it('read errors: `Message not found`, `messageIds must have at least 1 item`', async () => {
      const t = await setup()
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.read', { phone: B, chatId: A, messageIds: ['nope'] }))).to.include({
        status: 404,
        message: 'Message not found',
      })
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.read', { phone: B, chatId: A, messageIds: [] }))).to.include({
        status: 400,
        message: 'messageIds must have at least 1 item',
      })
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.read', { phone: B, chatId: A, messageIds: 'x' }))).to.include({
        message: 'messageIds must be an array',
      })
    })

    it('react answers {} and the session gets message_reaction; an empty emoji removes it', async () => {
      const t = await setup()
      await t.link('s1')
      const sent = await t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'x' } })
      expect(await run(t.sandbox, 'sandbox.accounts.react', { phone: B, chatId: jid(A), messageId: sent.id, emoji: '😂' })).to.deep.equal({})
      await run(t.sandbox, 'sandbox.accounts.react', { phone: B, chatId: jid(A), messageId: sent.id, emoji: '' })
      expect(t.events.of('message.reaction', 's1').map((r) => r.reaction)).to.deep.equal(['😂', ''])
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.react', { phone: B, chatId: jid(A), messageId: sent.id }))).to.include({
        message: 'emoji is required',
      })
    })
  })

  describe('sandbox.accounts.unlink and sandbox.sessions.drop', () => {
    it('unlink answers {} and the session goes logged_out; an unknown session is `Session not found`', async () => {
      const t = await setup()
      await t.link('s1')
      expect(await run(t.sandbox, 'sandbox.accounts.unlink', { phone: A, sessionId: 's1' })).to.deep.equal({})
      expect(t.events.states('s1').at(-1)).to.equal('logged_out')
      expect(await caught(() => run(t.sandbox, 'sandbox.accounts.unlink', { phone: A, sessionId: 's1' }))).to.include({
        status: 404,
        message: 'Session not found',
      })
    })

    it('drop answers {}; the session goes disconnected, then ready again', async () => {
      const t = await setup()
      await t.link('s1')
      expect(await run(t.sandbox, 'sandbox.sessions.drop', { id: 's1' })).to.deep.equal({})
      await t.clock.tick(200)
      expect(t.events.states('s1').slice(-3)).to.deep.equal(['disconnected', 'connecting', 'open'])
      expect(await caught(() => run(t.sandbox, 'sandbox.sessions.drop', { id: 'nope' }))).to.include({ status: 404, message: 'Session not found' })
    })
  })
})
