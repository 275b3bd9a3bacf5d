import { expect } from 'chai'
import { hasErrorCode, isGatewayError } from '../../src/errors/index.js'
import { makeTestGateway, type TestGateway } from '../support/test-gateway.js'

async function rejects(promise: Promise<unknown>, code: string, message?: string) {
  try {
    await promise
  } catch (err) {
    expect(isGatewayError(err), String(err)).to.equal(true)
    expect((err as { code: string }).code).to.equal(code)
    if (message !== undefined) expect((err as Error).message).to.equal(message)
    return err as { status: number; retryAfter?: number }
  }
  expect.fail(`expected ${code}`)
}

describe('gateway.sessions', () => {
  let t: TestGateway
  beforeEach(async () => {
    t = await makeTestGateway()
  })
  afterEach(async () => {
    await t.gateway.close()
  })

  const create = (name = 'shop') => t.gateway.sessions.create({ name }, t.gateway.masterPrincipal())

  it('creates a session in starting with a session key and a webhook secret', async () => {
    const { record, apiKey } = await create()
    expect(record.state).to.equal('starting')
    expect(apiKey).to.match(/^wask_[A-Za-z0-9_-]{43}$/)
    expect(record.webhookSecret).to.match(/^whsec_/)
    expect(t.driver.calls.map((c) => c.method)).to.deep.equal(['open'])
  })

  it('refuses a second session with the same name', async () => {
    await create('shop')
    await rejects(create('shop'), 'SESSION_NAME_TAKEN', 'Session name already exists')
  })

  it('answers the QR only in qr_ready, then at most once per 5 seconds', async () => {
    const { record } = await create()
    const early = await rejects(t.gateway.sessions.qr(record.id, 'raw'), 'QR_NOT_AVAILABLE', 'QR code not available yet. Session state: starting')
    expect(early.status).to.equal(503)
    const qr = t.driver.showQr(record.id)
    expect(t.eventsOf('qr_ready')).to.have.length(1)
    expect(await t.gateway.sessions.qr(record.id, 'raw')).to.equal(qr)
    const again = await rejects(t.gateway.sessions.qr(record.id, 'raw'), 'QR_POLLED_TOO_SOON', 'Please wait 5 seconds before requesting QR again')
    expect(again.status).to.equal(429)
    expect(again.retryAfter).to.equal(5)
    await t.clock.tick(5_000)
    expect(await t.gateway.sessions.qr(record.id, 'png')).to.match(/^data:image\/png;base64,/)
  })

  it('links: authenticated then ready, with the phone number in the status', async () => {
    const { record } = await create()
    t.driver.showQr(record.id)
    await t.driver.link(record.id, '15550001111')
    expect(t.events.map((e) => e.event)).to.deep.equal(['qr_ready', 'authenticated', 'ready'])
    expect(t.eventsOf('ready')[0]).to.include({ phoneNumber: '15550001111', sessionId: record.id })
    expect(t.gateway.sessions.get(record.id)).to.include({ state: 'ready', phoneNumber: '15550001111' })
    await rejects(t.gateway.sessions.qr(record.id, 'raw'), 'ALREADY_AUTHENTICATED', 'Already authenticated')
  })

  it('requests a pairing code once the QR stage is reached, with the spec errors around it', async () => {
    await rejects(t.gateway.sessions.requestPairingCode('nope', '15550001111'), 'SESSION_NOT_FOUND_OR_NOT_STARTED', 'Session not found or not started')
    const { record } = await create()
    await rejects(t.gateway.sessions.requestPairingCode(record.id, '12'), 'INVALID_PHONE_NUMBER', 'Invalid phone number format')
    const pending = t.gateway.sessions.requestPairingCode(record.id, '+1 555 000 1111')
    t.driver.showQr(record.id)
    expect(await pending).to.deep.equal({ code: 'ABCD1234', phoneNumber: '15550001111' })
    await t.driver.link(record.id)
    await rejects(t.gateway.sessions.requestPairingCode(record.id, '15550001111'), 'ALREADY_AUTHENTICATED')
    await t.gateway.sessions.stop(record.id)
    const stopped = await rejects(t.gateway.sessions.requestPairingCode(record.id, '15550001111'), 'SESSION_NOT_STARTED', 'Session not found or not started')
    expect(stopped.status).to.equal(400)
  })

  it('stops keeping the link and starts again without a QR', async () => {
    const { record } = await create()
    t.driver.showQr(record.id)
    await t.driver.link(record.id)
    await t.gateway.sessions.stop(record.id)
    expect(t.gateway.sessions.get(record.id).state).to.equal('stopped')
    expect(await t.gateway.sessions.startSession(record.id)).to.equal('started')
    expect(t.gateway.sessions.get(record.id).state).to.equal('ready')
    expect(t.eventsOf('qr_ready')).to.have.length(1)
    expect(await t.gateway.sessions.startSession(record.id)).to.equal('already running')
  })

  it('logs out: credentials wiped, logged_out event, and start shows a new QR', async () => {
    const { record } = await create()
    t.driver.showQr(record.id)
    await t.driver.link(record.id)
    await t.gateway.sessions.logout(record.id)
    expect(t.gateway.sessions.get(record.id)).to.include({ state: 'logged_out' })
    expect(t.gateway.sessions.get(record.id).phoneNumber).to.equal(undefined)
    expect(t.eventsOf('logged_out')).to.have.length(1)
    expect(await t.driver.auth.get(record.id)!.readCreds()).to.equal(undefined)
    await t.gateway.sessions.startSession(record.id)
    expect(t.gateway.sessions.get(record.id).state).to.equal('starting')
  })

  it('deletes everything and forgets the session key', async () => {
    const { record, apiKey } = await create()
    await t.gateway.sessions.delete(record.id)
    expect(() => t.gateway.sessions.get(record.id)).to.throw('Session not found')
    await rejects(t.gateway.authenticate(apiKey), 'API_KEY_INVALID', 'Invalid API key')
  })

  it('comes back ready after a restart, with no new scan', async () => {
    const { record } = await create()
    t.driver.showQr(record.id)
    await t.driver.link(record.id)
    t = await t.restart()
    expect(t.gateway.sessions.get(record.id)).to.include({ state: 'ready', phoneNumber: '15550001111' })
    expect(t.eventsOf('qr_ready')).to.have.length(0)
  })

  it('does not restore a stopped session at start-up', async () => {
    const { record } = await create()
    await t.gateway.sessions.stop(record.id)
    t = await t.restart()
    expect(t.gateway.sessions.get(record.id).state).to.equal('stopped')
    expect(t.driver.calls).to.have.length(0)
  })

  it('reports disconnects with willReconnect and moves to failed when the driver gives up', async () => {
    const { record } = await create()
    t.driver.showQr(record.id)
    await t.driver.link(record.id)
    t.driver.emitUpdate(record.id, { state: 'disconnected', reason: 'connection_lost', error: 'Connection lost', willReconnect: true })
    expect(t.gateway.sessions.get(record.id).state).to.equal('disconnected')
    expect(t.eventsOf('disconnected')[0]).to.include({ error: 'Connection lost', willReconnect: true })
    t.driver.emitUpdate(record.id, { state: 'failed', reason: 'replaced', error: 'Replaced by another client' })
    expect(t.gateway.sessions.get(record.id).state).to.equal('failed')
  })

  it('enforces maxSessions of the creating key', async () => {
    const principal = { ...t.gateway.masterPrincipal(), limits: { ...t.gateway.masterPrincipal().limits, maxSessions: 1 } }
    await t.gateway.sessions.create({ name: 'a' }, principal)
    await rejects(t.gateway.sessions.create({ name: 'b' }, principal), 'MAX_SESSIONS_REACHED', 'Maximum number of sessions reached')
  })

  it('limits session creations per hour per key', async () => {
    for (let i = 0; i < 10; i++) await create(`s${i}`)
    const err = await rejects(create('s10'), 'RATE_LIMITED')
    expect(err.status).to.equal(429)
    expect((err as unknown as Error).message).to.match(/^Rate limit exceeded\. Please wait \d+ seconds before trying again\.$/)
    await t.clock.tick(3_600_000)
    await create('s11')
  })

  it('maps readiness to the spec texts for sends', async () => {
    const { record } = await create()
    expect(() => t.gateway.sessions.requireReady(record.id)).to.throw(
      `Session not authenticated. Please scan the QR code first using GET /sessions/${record.id}/qr`,
    )
    t.driver.showQr(record.id)
    await t.driver.link(record.id)
    t.driver.emitUpdate(record.id, { state: 'disconnected', reason: 'connection_lost', error: 'x', willReconnect: true })
    try {
      t.gateway.sessions.requireReady(record.id)
      expect.fail('should throw')
    } catch (err) {
      expect(hasErrorCode(err, 'SESSION_CONNECTING')).to.equal(true)
      expect((err as Error).message).to.equal('Session is still connecting. Please wait.')
    }
  })
})

describe('gateway.sessions when the network cannot start a session', () => {
  it('ends the session failed (not stuck in starting) with a disconnected event', async () => {
    const t = await makeTestGateway()
    try {
      t.driver.open = async () => {
        throw new Error('socket factory exploded')
      }
      const { record } = await t.gateway.sessions.create({ name: 'x' }, t.gateway.masterPrincipal())
      expect(t.gateway.sessions.get(record.id)).to.include({ state: 'failed', lastError: 'Could not connect to the network' })
      expect(t.eventsOf('disconnected')[0]).to.include({ willReconnect: false, error: 'Could not connect to the network' })
    } finally {
      await t.gateway.close()
    }
  })
})

describe('gateway.sessionForLink()', () => {
  it('finds the session showing a QR, or handed a pairing code (any case, with or without the dash)', async () => {
    const t = await makeTestGateway()
    try {
      const { record } = await t.gateway.sessions.create({ name: 'x' }, t.gateway.masterPrincipal())
      const qr = t.driver.showQr(record.id)
      expect(t.gateway.sessionForLink({ qr })).to.equal(record.id)
      expect(t.gateway.sessionForLink({ qr: 'other' })).to.equal(undefined)
      await t.gateway.sessions.requestPairingCode(record.id, '15550001111')
      expect(t.gateway.sessionForLink({ code: 'abcd-1234' })).to.equal(record.id)
      await t.gateway.sessions.delete(record.id)
      expect(t.gateway.sessionForLink({ code: 'ABCD1234' })).to.equal(undefined)
    } finally {
      await t.gateway.close()
    }
  })
})
