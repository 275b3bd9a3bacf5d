import { expect } from 'chai'
import { createAccount, createSession, linkByQr, linkedSession, readQr, stateOf, waitForState } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'
import { WebhookReceiver } from './support/webhook-receiver.js'
import { waitFor } from './support/wait.js'

describe('e2e: session lifecycle', function () {
  this.timeout(E2E_TIMEOUT_MS)
  let e2e: E2e
  let hooks: WebhookReceiver

  beforeEach(async () => {
    e2e = await startE2e()
    hooks = await WebhookReceiver.start()
  })

  afterEach(async () => {
    await e2e.close()
    await hooks.close()
  })

  /** Waits until the session's delivered events end with `tail`, and answers them all. */
  const eventsEndingWith = (id: string, ...tail: string[]): Promise<string[]> =>
    waitFor(
      () => {
        const names = hooks.names(id)
        return names.slice(-tail.length).join() === tail.join() ? names : undefined
      },
      { clock: e2e.clock, tickMs: 50, what: `events ending with ${tail.join(', ')}` },
    )

  it('a dropped connection sends disconnected with willReconnect true, then ready again', async () => {
    const session = await linkedSession(e2e, '15550003001', { webhookUrl: hooks.url() })
    await eventsEndingWith(session.id, 'ready')
    const drop = await e2e.admin.post(`/sandbox/sessions/${session.id}/drop`)
    expect(drop.body).to.deep.equal({ success: true })
    // Until the connect delay is ticked, the session is on its way back: sends are asked to wait.
    expect(await stateOf(e2e, session.id)).to.be.oneOf(['disconnected', 'connecting'])
    const early = await session.api.post(`/sessions/${session.id}/send`, { to: '15550003001', text: 'x' })
    expect(early.status).to.equal(503)
    expect(early.body).to.deep.include({ success: false, error: 'Session is still connecting. Please wait.' })
    expect(early.headers.get('retry-after')).to.equal(String(early.body.retryAfter))
    const names = await eventsEndingWith(session.id, 'disconnected', 'ready')
    expect(names).to.deep.equal(['qr_ready', 'authenticated', 'ready', 'disconnected', 'ready'])
    const disconnected = hooks.events(session.id).find((e) => e.event === 'disconnected')!
    expect(disconnected.willReconnect).to.equal(true)
    expect(disconnected.error).to.be.a('string')
    expect(await stateOf(e2e, session.id)).to.equal('ready')
  })

  it('stop keeps the link: start reconnects without a scan and without a new qr_ready', async () => {
    const session = await linkedSession(e2e, '15550003002', { webhookUrl: hooks.url() })
    const stop = await session.api.post(`/sessions/${session.id}/stop`)
    expect(stop.body).to.deep.equal({ success: true, message: 'Session stopped' })
    expect(await stateOf(e2e, session.id)).to.equal('stopped')
    const send = await session.api.post(`/sessions/${session.id}/send`, { to: '15550003002', text: 'x' })
    expect(send.status).to.equal(400)
    expect(send.body.error).to.equal(
      `Session not authenticated. Please scan the QR code first using GET /sessions/${session.id}/qr`,
    )

    const start = await session.api.post(`/sessions/${session.id}/start`)
    expect(start.body).to.deep.equal({ success: true, message: 'Session started' })
    await waitForState(e2e, session.id, 'ready')
    const names = await eventsEndingWith(session.id, 'ready', 'ready')
    expect(names).to.deep.equal(['qr_ready', 'authenticated', 'ready', 'ready'])
    const again = await session.api.post(`/sessions/${session.id}/start`)
    expect(again.body).to.deep.equal({ success: true, message: 'Session is already running' })
  })

  it('logout sends logged_out, leaves state logged_out, and start shows a new QR', async () => {
    const session = await linkedSession(e2e, '15550003003', { webhookUrl: hooks.url() })
    const logout = await session.api.post(`/sessions/${session.id}/logout`)
    expect(logout.body).to.deep.equal({ success: true, message: 'Session logged out' })
    await eventsEndingWith(session.id, 'logged_out')
    const status = await session.api.get(`/sessions/${session.id}/status`)
    expect(status.body.session.state).to.equal('logged_out')
    expect(status.body.session.phoneNumber).to.equal(null)
    const accounts = (await e2e.admin.get('/sandbox/accounts')).body.accounts as { phoneNumber: string; sessions: string[] }[]
    expect(accounts.find((a) => a.phoneNumber === '15550003003')?.sessions).to.deep.equal([])

    const start = await session.api.post(`/sessions/${session.id}/start`)
    expect(start.body.message).to.equal('Session started')
    const qr = await readQr(e2e, session)
    expect(qr).to.match(/^sandbox:/)
    expect(hooks.names(session.id).at(-1)).to.equal('qr_ready')
    await e2e.admin.post('/sandbox/accounts/15550003003/scan', { qr })
    await waitForState(e2e, session.id, 'ready')
  })

  it('unlinking from the phone logs the session out', async () => {
    const session = await linkedSession(e2e, '15550003004', { webhookUrl: hooks.url() })
    const unlink = await e2e.admin.post('/sandbox/accounts/15550003004/unlink', { sessionId: session.id })
    expect(unlink.body).to.deep.equal({ success: true })
    await waitForState(e2e, session.id, 'logged_out')
    await eventsEndingWith(session.id, 'logged_out')
  })

  it('delete needs the admin key; afterwards the session is 404 and its key 401', async () => {
    await createAccount(e2e, '15550003005')
    const session = await createSession(e2e, { webhookUrl: hooks.url() })
    await linkByQr(e2e, session, '15550003005')

    const bySessionKey = await session.api.delete(`/sessions/${session.id}`)
    expect(bySessionKey.status).to.equal(403)
    expect(bySessionKey.body).to.deep.equal({ success: false, error: 'Admin API key required' })

    const deleted = await e2e.admin.delete(`/sessions/${session.id}`)
    expect(deleted.body).to.deep.equal({ success: true, message: 'Session deleted' })
    const status = await e2e.admin.get(`/sessions/${session.id}/status`)
    expect(status.status).to.equal(404)
    expect(status.body).to.deep.equal({ success: false, error: 'Session not found' })
    const again = await e2e.admin.delete(`/sessions/${session.id}`)
    expect(again.status).to.equal(404)
    const withKey = await session.api.get(`/sessions/${session.id}/status`)
    expect(withKey.status).to.equal(401)
    expect(withKey.body).to.deep.equal({ success: false, error: 'Invalid API key' })
    const list = await e2e.admin.get('/sessions')
    expect(list.body.sessions.map((s: { id: string }) => s.id)).to.not.include(session.id)
    const accounts = (await e2e.admin.get('/sandbox/accounts')).body.accounts as { phoneNumber: string; sessions: string[] }[]
    expect(accounts.find((a) => a.phoneNumber === '15550003005')?.sessions).to.deep.equal([])
  })

  it('lists sessions for the admin key, oldest first, with their phone numbers', async () => {
    const linked = await linkedSession(e2e, '15550003006', { name: 'first' })
    await createSession(e2e, { name: 'second' })
    const list = await e2e.admin.get('/sessions')
    expect(list.body.sessions.map((s: { name: string }) => s.name)).to.deep.equal(['first', 'second'])
    expect(list.body.sessions[0]).to.include({ id: linked.id, state: 'ready', phoneNumber: '15550003006' })
    const bySession = await linked.api.get('/sessions')
    expect(bySession.status).to.equal(403)
    expect(bySession.body.error).to.equal('Admin API key required')
  })
})
