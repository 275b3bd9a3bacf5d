import { expect } from 'chai'
import { createAccount, createSession, linkedSession, stateOf, waitForState } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'
import { WebhookReceiver } from './support/webhook-receiver.js'
import { waitFor } from './support/wait.js'

const ME = '15550004001'
const BOB = '15550004002'

describe('e2e: restart over the same data dir (sqlite)', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e
  let hooks: WebhookReceiver

  beforeEach(async () => {
    e2e = await startE2e({ store: 'sqlite' })
    hooks = await WebhookReceiver.start()
  })

  afterEach(async () => {
    await e2e.close()
    await hooks.close()
  })

  it('brings a linked session back ready with no scan, keeping its key, its messages and its chats', async () => {
    expect(e2e.config.store).to.equal(`sqlite://${e2e.dataDir}/switchboard.sqlite`)
    await createAccount(e2e, BOB, 'Bob')
    const session = await linkedSession(e2e, ME, { webhookUrl: hooks.url() })
    const sent = await session.api.post(`/sessions/${session.id}/send`, { to: BOB, text: 'before the restart' })
    expect(sent.status, sent.text).to.equal(200)
    const incoming = await e2e.admin.post(`/sandbox/accounts/${BOB}/messages`, { to: ME, text: 'hello before' })
    await hooks.waitForEvent((e) => e.event === 'message' && e.message.id === incoming.body.messageId, { clock: e2e.clock })
    const key = await e2e.admin.post('/admin/api-keys', { name: 'tenant', rateLimitGeneral: 7 })
    const stopped = await createSession(e2e, { name: 'stays-stopped', by: e2e.as(key.body.apiKey.key) })
    await stopped.api.post(`/sessions/${stopped.id}/stop`)

    e2e = await e2e.restart()
    const api = e2e.as(session.apiKey)
    await waitForState(e2e, session.id, 'ready')
    expect(await stateOf(e2e, stopped.id)).to.equal('stopped')
    const tenant = await e2e.as(key.body.apiKey.key).get('/sessions')
    expect(tenant.body.sessions.map((s: { id: string }) => s.id)).to.deep.equal([stopped.id])
    expect(tenant.headers.get('x-ratelimit-limit')).to.equal('7')
    const details = await e2e.admin.get(`/admin/api-keys/${key.body.apiKey.id}`)
    expect(details.body.apiKey.usage).to.deep.equal({ messagesSent: 0, sessionsCreated: 1 })
    expect(details.body.apiKey.lastUsedAt).to.match(/Z$/)
    await waitFor(() => hooks.names(session.id).filter((n) => n === 'ready').length === 2, { clock: e2e.clock })
    const linking = ['qr_ready', 'authenticated', 'ready']
    expect(hooks.names(session.id)).to.deep.equal([...linking, 'message_status', 'message_status', 'message', 'ready'])

    const status = await api.get(`/sessions/${session.id}/status`)
    expect(status.body.session).to.include({ state: 'ready', phoneNumber: ME, name: session.name })
    const inbox = (await e2e.admin.get(`/sandbox/accounts/${BOB}/messages`)).body.messages as { id: string; text: string }[]
    expect(inbox.map((m) => m.text)).to.deep.equal(['before the restart'])
    // The records survived: both a sent and a received message can still be quoted.
    for (const quoted of [sent.body.messageId as string, incoming.body.messageId as string]) {
      const reply = await api.post(`/sessions/${session.id}/send`, { to: BOB, text: 'after', quotedMessageId: quoted })
      expect(reply.status, reply.text).to.equal(200)
    }
    const chats = (await api.get(`/sessions/${session.id}/chats`)).body.chats as { id: string }[]
    expect(chats.map((c) => c.id)).to.deep.equal([`${BOB}@s.whatsapp.net`])
  })

  it('delivers after the restart the webhooks queued while the receiver was down', async () => {
    await createAccount(e2e, BOB)
    const session = await linkedSession(e2e, ME, { webhookUrl: hooks.url() })
    await waitFor(() => hooks.names(session.id).includes('ready'), { clock: e2e.clock })
    await hooks.down()
    const incoming = await e2e.admin.post(`/sandbox/accounts/${BOB}/messages`, { to: ME, text: 'while down' })
    await waitFor(async () => (await e2e.server.gateway.stats()).webhooks.pending >= 1, { clock: e2e.clock })

    e2e = await e2e.restart()
    await hooks.up()
    const event = await hooks.waitForEvent((e) => e.event === 'message', { clock: e2e.clock, tickMs: 50 })
    expect(event.message.id).to.equal(incoming.body.messageId)
    await waitFor(() => hooks.names(session.id).length === 5, { clock: e2e.clock })
    expect(hooks.names(session.id)).to.deep.equal(['qr_ready', 'authenticated', 'ready', 'message', 'ready'])
  })
})
