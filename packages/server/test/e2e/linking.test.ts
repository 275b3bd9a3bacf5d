import { expect } from 'chai'
import { createAccount, createSession, readQr, settleWebhooks, stateOf, waitForState } from './support/flows.js'
import { E2E_TIMEOUT_MS, startE2e, type E2e } from './support/harness.js'
import { WebhookReceiver } from './support/webhook-receiver.js'
import { waitFor } from './support/wait.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('e2e: linking a session', function () {
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

  it('creates a session, refuses an early QR, serves it once per 5 s, links by scan: qr_ready, authenticated, ready', async () => {
    const phone = '15550001001'
    await createAccount(e2e, phone, 'Ann')
    const created = await e2e.admin.post('/sessions/create', { name: 'walk', webhookUrl: hooks.url() })
    expect(created.status).to.equal(201)
    expect(created.body.success).to.equal(true)
    expect(created.body.apiKey).to.match(/^wask_/)
    expect(created.body.webhookSecret).to.match(/^whsec_/)
    expect(created.body.warning).to.be.a('string')
    const { id, state, name, createdAt } = created.body.session
    expect({ state, name }).to.deep.equal({ state: 'starting', name: 'walk' })
    expect(createdAt).to.match(ISO)
    const session = e2e.as(created.body.apiKey)

    const early = await session.get(`/sessions/${id}/qr`)
    expect(early.status).to.equal(503)
    expect(early.body).to.deep.include({ success: false, error: 'QR code not available yet. Session state: starting' })
    expect(early.body.retryAfter).to.be.a('number').above(0)
    expect(early.headers.get('retry-after')).to.equal(String(early.body.retryAfter))

    await waitForState(e2e, id, 'qr_ready')
    const qr = await session.get(`/sessions/${id}/qr`)
    expect(qr.status).to.equal(200)
    expect(qr.body.qr).to.be.a('string').and.match(/^sandbox:/)

    await settleWebhooks(e2e)
    await e2e.clock.tick(4000)
    const again = await session.get(`/sessions/${id}/qr`)
    expect(again.status).to.equal(429)
    expect(again.body).to.deep.include({ success: false, error: 'Please wait 5 seconds before requesting QR again' })
    expect(again.body.retryAfter).to.equal(1)
    expect(again.headers.get('retry-after')).to.equal('1')

    const scan = await e2e.admin.post(`/sandbox/accounts/${phone}/scan`, { qr: qr.body.qr })
    expect(scan.body).to.deep.equal({ success: true, sessionId: id })
    await waitForState(e2e, id, 'ready')

    const events = await waitFor(() => (hooks.names(id).length >= 3 ? hooks.events(id) : undefined), { clock: e2e.clock })
    expect(events.map((e) => e.event)).to.deep.equal(['qr_ready', 'authenticated', 'ready'])
    for (const event of events) {
      expect(event.sessionId).to.equal(id)
      expect(event.timestamp).to.match(ISO)
    }
    expect(events[0]).to.have.all.keys('event', 'sessionId', 'timestamp')
    expect(events[1]).to.deep.include({ phoneNumber: phone })
    expect(events[2]).to.deep.include({ phoneNumber: phone })

    const status = await session.get(`/sessions/${id}/status`)
    expect(status.body.session).to.deep.include({ id, name: 'walk', state: 'ready', phoneNumber: phone })
    expect(status.body.session.lastActivity).to.match(ISO)
    const afterLink = await session.get(`/sessions/${id}/qr`)
    expect(afterLink.status).to.equal(400)
    expect(afterLink.body.error).to.equal('Already authenticated')
  })

  it('serves the QR as a PNG data URL with ?format=png', async () => {
    const session = await createSession(e2e)
    await waitForState(e2e, session.id, 'qr_ready')
    const png = await session.api.get(`/sessions/${session.id}/qr?format=png`)
    expect(png.status).to.equal(200)
    expect(png.body.qr).to.match(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)
    const bytes = Buffer.from(String(png.body.qr).split(',')[1]!, 'base64')
    expect(bytes.subarray(1, 4).toString('latin1')).to.equal('PNG')
  })

  it('links with a pairing code entered on the phone', async () => {
    const phone = '15550001002'
    await createAccount(e2e, phone)
    const session = await createSession(e2e, { webhookUrl: hooks.url() })
    const requested = session.api.post(`/sessions/${session.id}/auth/request-code`, { phoneNumber: `+${phone}` })
    // While starting, the request waits for the QR stage.
    await waitForState(e2e, session.id, 'qr_ready')
    const code = await requested
    expect(code.status, code.text).to.equal(200)
    expect(code.body.code).to.match(/^[1-9A-Z]{8}$/)
    expect(code.body.phoneNumber).to.equal(phone)
    expect(code.body.message).to.be.a('string').and.include('Link with phone number')

    const linked = await e2e.admin.post(`/sandbox/accounts/${phone}/link-code`, { code: code.body.code })
    expect(linked.body).to.deep.equal({ success: true, sessionId: session.id })
    await waitForState(e2e, session.id, 'ready')
    await waitFor(() => hooks.names(session.id).includes('ready'), { clock: e2e.clock })
    expect(hooks.names(session.id)).to.deep.equal(['qr_ready', 'authenticated', 'ready'])

    const again = await session.api.post(`/sessions/${session.id}/auth/request-code`, { phoneNumber: phone })
    expect(again.status).to.equal(400)
    expect(again.body).to.deep.equal({ success: false, error: 'Already authenticated' })
    const reused = await e2e.admin.post(`/sandbox/accounts/${phone}/link-code`, { code: code.body.code })
    expect(reused.status).to.equal(400)
    expect(reused.body).to.deep.equal({ success: false, error: 'Invalid or expired pairing code' })
  })

  it('answers the pairing-code errors: bad number, unknown session, stopped session', async () => {
    const session = await createSession(e2e)
    await waitForState(e2e, session.id, 'qr_ready')
    const bad = await session.api.post(`/sessions/${session.id}/auth/request-code`, { phoneNumber: '12' })
    expect(bad.status).to.equal(400)
    expect(bad.body).to.deep.equal({ success: false, error: 'Invalid phone number format' })
    const unregistered = await session.api.post(`/sessions/${session.id}/auth/request-code`, { phoneNumber: '15550001999' })
    expect(unregistered.status).to.equal(404)
    expect(unregistered.body).to.deep.equal({ success: false, error: 'Number is not registered on WhatsApp' })

    const unknownId = '00000000-0000-4000-8000-000000000000'
    const missing = await e2e.admin.post(`/sessions/${unknownId}/auth/request-code`, { phoneNumber: '15550001003' })
    expect(missing.status).to.equal(404)
    expect(missing.body).to.deep.equal({ success: false, error: 'Session not found or not started' })

    const stopped = await session.api.post(`/sessions/${session.id}/stop`)
    expect(stopped.body).to.deep.equal({ success: true, message: 'Session stopped' })
    const notStarted = await session.api.post(`/sessions/${session.id}/auth/request-code`, { phoneNumber: '15550001003' })
    expect(notStarted.status).to.equal(400)
    expect(notStarted.body.error).to.equal('Session not found or not started')
    expect(await stateOf(e2e, session.id)).to.equal('stopped')
  })

  it('refuses a wrong or expired QR; the rotated QR (with a new qr_ready) links', async () => {
    await createAccount(e2e, '15550001004')
    const session = await createSession(e2e, { webhookUrl: hooks.url() })
    const qr = await readQr(e2e, session)
    const wrong = await e2e.admin.post('/sandbox/accounts/15550001004/scan', { qr: `${qr}x` })
    expect(wrong.status).to.equal(400)
    expect(wrong.body).to.deep.equal({ success: false, error: 'Invalid or expired QR code' })
    expect(await stateOf(e2e, session.id)).to.equal('qr_ready')

    // Up to just before the rotation, then in small steps (see settleWebhooks).
    await settleWebhooks(e2e)
    await e2e.clock.tick(50_000)
    await waitFor(() => hooks.names(session.id).join() === 'qr_ready,qr_ready', { clock: e2e.clock, tickMs: 100 })
    const expired = await e2e.admin.post('/sandbox/accounts/15550001004/scan', { qr })
    expect(expired.body).to.deep.equal({ success: false, error: 'Invalid or expired QR code' })
    const rotated = await session.api.get(`/sessions/${session.id}/qr`)
    expect(rotated.body.qr).to.be.a('string').and.not.equal(qr)
    await e2e.admin.post('/sandbox/accounts/15550001004/scan', { qr: rotated.body.qr })
    await waitForState(e2e, session.id, 'ready')
  })
})
