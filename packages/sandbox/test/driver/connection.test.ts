import { expect } from 'chai'
import { GatewayError } from '@switchboard/core'
import { A, B, caught, jid, setup } from '../support/setup.js'

describe('sandbox driver: linking', () => {
  it('stays in starting for qrDelayMs, then shows a printable QR', async () => {
    const t = await setup()
    await t.driver.open('s1', { auth: t.auth('s1') })
    expect(t.events.states('s1')).to.deep.equal(['starting'])
    await t.clock.tick(999)
    expect(t.events.states('s1')).to.deep.equal(['starting'])
    await t.clock.tick(1)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'qr'])
    expect(t.events.lastQr('s1')).to.match(/^sandbox:s1:[A-Za-z0-9_-]{16}$/)
  })

  it('honours custom delays', async () => {
    const t = await setup({ qrDelayMs: 10, connectDelayMs: 5 })
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(10)
    await t.sandbox.scan(A, t.events.lastQr('s1'))
    await t.clock.tick(4)
    expect(t.events.states('s1').at(-1)).to.equal('connecting')
    await t.clock.tick(1)
    expect(t.events.states('s1').at(-1)).to.equal('open')
  })

  it('rotates the QR every minute; an old payload no longer scans', async () => {
    const t = await setup()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(1000)
    const first = t.events.lastQr('s1')
    await t.clock.tick(60_000)
    const second = t.events.lastQr('s1')
    expect(second).to.not.equal(first)
    expect(await caught(() => t.sandbox.scan(A, first))).to.include({ message: 'Invalid or expired QR code' })
    expect(await t.sandbox.scan(A, second)).to.deep.equal({ sessionId: 's1' })
  })

  it('a scan gives connecting, then after connectDelayMs authenticated and open with the account', async () => {
    const t = await setup()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(1000)
    await t.sandbox.scan(A, t.events.lastQr('s1'))
    expect(t.events.states('s1')).to.deep.equal(['starting', 'qr', 'connecting'])
    await t.clock.tick(200)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'qr', 'connecting', 'authenticated', 'open'])
    const me = { jid: jid(A), phoneNumber: A, lid: (await t.sandbox.accounts.get(A)).lid, name: 'Sandbox 15550001111' }
    expect(t.events.updates('s1')[3]).to.deep.equal({ sessionId: 's1', state: 'authenticated', me })
    expect(t.events.updates('s1')[4]).to.deep.equal({ sessionId: 's1', state: 'open', me })
    expect(t.auth('s1').creds).to.deep.include({ sandbox: { version: 1, phone: A, deviceId: 1, linkedAtMs: t.clock.now() - 200 } })
    expect(t.events.of('identity.mapping', 's1')).to.deep.equal([{ sessionId: 's1', mappings: [{ lid: me.lid, pn: me.jid }] }])
    expect(await t.sandbox.links()).to.deep.equal([{ sessionId: 's1', phoneNumber: A, deviceId: 1, method: 'qr', linkedAtMs: t.clock.now() - 200, online: true }])
  })

  it('a fresh link learns the chats and contacts the account already has', async () => {
    const t = await setup()
    await t.sandbox.sendAs(B, { to: A, text: 'before you linked' })
    await t.link('s1')
    expect(t.events.of('contacts.upsert', 's1')[0]!.contacts).to.deep.equal([
      { id: jid(B), lid: (await t.sandbox.accounts.get(B)).lid, notify: 'Sandbox 15550002222' },
    ])
    expect(t.events.of('chats.upsert', 's1')[0]!.chats.map((c) => c.id)).to.deep.equal([jid(B)])
  })

  it('opening a session that is already starting, showing a QR or open does nothing', async () => {
    const t = await setup()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(1000)
    await t.driver.open('s1', { auth: t.auth('s1') })
    expect(t.events.states('s1')).to.deep.equal(['starting', 'qr'])
  })

  describe('pairing codes', () => {
    it('gives an 8-character code once the QR is up; the account entering it links the session', async () => {
      const t = await setup()
      await t.driver.open('s1', { auth: t.auth('s1') })
      await t.clock.tick(1000)
      const code = await t.driver.requestPairingCode('s1', A)
      expect(code).to.match(/^[1-9A-HJ-NP-TV-Z]{8}$/)
      expect(await t.sandbox.enterCode(A, `${code.slice(0, 4)}-${code.slice(4)}`)).to.deep.equal({ sessionId: 's1' })
      await t.clock.tick(200)
      expect(t.events.states('s1')).to.deep.equal(['starting', 'qr', 'connecting', 'authenticated', 'open'])
      expect((await t.sandbox.links())[0]!.method).to.equal('code')
    })

    it('is refused by session state with the spec errors', async () => {
      const t = await setup()
      expect(await caught(() => t.driver.requestPairingCode('nope', A))).to.include({ code: 'SESSION_NOT_FOUND_OR_NOT_STARTED', status: 404 })
      await t.driver.open('s1', { auth: t.auth('s1') })
      expect(await caught(() => t.driver.requestPairingCode('s1', A))).to.include({
        code: 'QR_NOT_AVAILABLE',
        message: 'QR code not available yet. Session state: starting',
      })
      await t.clock.tick(1000)
      await t.sandbox.scan(A, t.events.lastQr('s1'))
      expect(await caught(() => t.driver.requestPairingCode('s1', A))).to.include({ code: 'ALREADY_AUTHENTICATED', message: 'Already authenticated' })
      await t.clock.tick(200)
      await t.sandbox.unlink(A, 's1')
      expect(await caught(() => t.driver.requestPairingCode('s1', A))).to.include({
        code: 'SESSION_NOT_STARTED',
        message: 'Session not found or not started',
        status: 400,
      })
      await t.driver.open('s2', { auth: t.auth('s2') })
      await t.driver.close('s2')
      expect(await caught(() => t.driver.requestPairingCode('s2', A))).to.include({ code: 'SESSION_NOT_STARTED' })
    })

    it('refuses invalid and unregistered numbers', async () => {
      const t = await setup()
      await t.driver.open('s1', { auth: t.auth('s1') })
      await t.clock.tick(1000)
      expect(await caught(() => t.driver.requestPairingCode('s1', '12'))).to.include({ code: 'INVALID_PHONE_NUMBER', message: 'Invalid phone number format' })
      expect(await caught(() => t.driver.requestPairingCode('s1', '15550009999'))).to.include({
        code: 'NUMBER_NOT_REGISTERED',
        message: 'Number is not registered on WhatsApp',
      })
    })

    it('expires after about 60 seconds and works once', async () => {
      const t = await setup()
      await t.driver.open('s1', { auth: t.auth('s1') })
      await t.clock.tick(1000)
      const code = await t.driver.requestPairingCode('s1', A)
      await t.clock.tick(60_000)
      expect(await caught(() => t.sandbox.enterCode(A, code))).to.include({ code: 'SANDBOX_CODE_INVALID', message: 'Invalid or expired pairing code' })
      const fresh = await t.driver.requestPairingCode('s1', A)
      await t.sandbox.enterCode(A, fresh)
      expect(await caught(() => t.sandbox.enterCode(A, fresh))).to.include({ code: 'SANDBOX_CODE_INVALID' })
    })

    it('another account cannot use it', async () => {
      const t = await setup()
      await t.driver.open('s1', { auth: t.auth('s1') })
      await t.clock.tick(1000)
      const code = await t.driver.requestPairingCode('s1', A)
      expect(await caught(() => t.sandbox.enterCode(B, code))).to.include({ code: 'SANDBOX_CODE_INVALID' })
    })
  })
})

describe('sandbox driver: restoring, faults and closing', () => {
  it('restores stored creds with a live link: starting, connecting, open; no QR, no authenticated', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.close('s1')
    t.events.clear()
    await t.driver.open('s1', { auth: t.auth('s1') })
    expect(t.events.states('s1')).to.deep.equal(['starting', 'connecting'])
    await t.clock.tick(200)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'connecting', 'open'])
  })

  it('stored creds whose link was removed while offline end logged_out, with the auth store cleared', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.close('s1')
    await t.sandbox.unlink(A, 's1')
    t.events.clear()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(200)
    expect(t.events.updates('s1')).to.deep.equal([
      { sessionId: 's1', state: 'starting' },
      { sessionId: 's1', state: 'connecting' },
      { sessionId: 's1', state: 'logged_out', reason: 'logged_out', error: 'Logged out' },
    ])
    expect(t.auth('s1').creds).to.equal(undefined)
  })

  it('creds of another network are dropped and a QR is shown', async () => {
    const t = await setup()
    t.auth('s1').creds = { me: { id: '15550001111:3@s.whatsapp.net' }, noiseKey: {} }
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.clock.tick(1000)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'qr'])
    expect(t.auth('s1').clears).to.equal(1)
  })

  it('without creds, an old link of the session is forgotten', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.close('s1')
    t.auth('s1').creds = undefined
    await t.driver.open('s1', { auth: t.auth('s1') })
    expect(await t.sandbox.links()).to.deep.equal([])
  })

  it('drop: disconnected (connection_lost, willReconnect), connecting, then open after connectDelayMs', async () => {
    const t = await setup()
    await t.link('s1')
    t.events.clear()
    await t.sandbox.drop('s1')
    expect(t.events.updates('s1')).to.deep.equal([
      { sessionId: 's1', state: 'disconnected', reason: 'connection_lost', error: 'Connection lost', willReconnect: true },
      { sessionId: 's1', state: 'connecting' },
    ])
    expect(await caught(() => t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'x' } }))).to.include({
      code: 'SESSION_CONNECTING',
      message: 'Session is still connecting. Please wait.',
    })
    await t.sandbox.sendAs(B, { to: A, text: 'during the outage' })
    await t.clock.tick(200)
    expect(t.events.states('s1').at(-1)).to.equal('open')
    expect(t.events.of('message.received', 's1')[0]!.message).to.include({ body: 'during the outage', offline: true })
  })

  it('drop of a session that is not open is `Session not found`', async () => {
    const t = await setup()
    expect(await caught(() => t.sandbox.drop('nope'))).to.include({ code: 'SESSION_NOT_FOUND' })
    await t.driver.open('s1', { auth: t.auth('s1') })
    expect(await caught(() => t.sandbox.drop('s1'))).to.include({ code: 'SESSION_NOT_FOUND' })
  })

  it('unlink from the phone: logged_out at once, auth store cleared', async () => {
    const t = await setup()
    await t.link('s1')
    await t.sandbox.unlink(A, 's1')
    expect(t.events.updates('s1').at(-1)).to.deep.equal({ sessionId: 's1', state: 'logged_out', reason: 'logged_out', error: 'Logged out' })
    expect(t.auth('s1').creds).to.equal(undefined)
    expect((await t.sandbox.accounts.get(A)).sessions).to.deep.equal([])
  })

  it('unlink while reconnecting after a drop also ends logged_out', async () => {
    const t = await setup()
    await t.link('s1')
    await t.sandbox.drop('s1')
    await t.sandbox.unlink(A, 's1')
    await t.clock.tick(200)
    expect(t.events.states('s1').slice(-1)).to.deep.equal(['logged_out'])
    expect(t.events.states('s1').filter((s) => s === 'open')).to.have.length(1)
  })

  it('close() stops the QR timers and emits closed once', async () => {
    const t = await setup()
    await t.driver.open('s1', { auth: t.auth('s1') })
    await t.driver.close('s1')
    await t.driver.close('s1')
    await t.clock.tick(120_000)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'closed'])
    expect(t.clock.pendingTimers()).to.equal(0)
  })

  it('close() during the creds read wins over the late restore', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.close('s1')
    t.events.clear()
    const opening = t.driver.open('s1', { auth: t.auth('s1') })
    await t.driver.close('s1')
    await opening
    await t.clock.tick(1000)
    expect(t.events.states('s1')).to.deep.equal(['starting', 'closed'])
  })

  it('close({ logout }) of a stopped session still unlinks it', async () => {
    const t = await setup()
    await t.link('s1')
    await t.driver.close('s1')
    t.events.clear()
    await t.driver.close('s1', { logout: true })
    expect(t.events.states('s1')).to.deep.equal([])
    expect(await t.sandbox.links()).to.deep.equal([])
    expect(t.auth('s1').creds).to.equal(undefined)
  })

  it('shutdown() closes every session without logging out', async () => {
    const t = await setup()
    await t.link('s1')
    await t.link('s2', B)
    await t.driver.shutdown()
    expect(t.events.states('s1').at(-1)).to.equal('closed')
    expect(t.events.states('s2').at(-1)).to.equal('closed')
    expect((await t.sandbox.links()).map((l) => [l.sessionId, l.online])).to.deep.equal([
      ['s1', false],
      ['s2', false],
    ])
  })

  it('failNext makes the next matching call fail, with the default or a given error', async () => {
    const t = await setup()
    await t.link('s1')
    const send = () => t.driver.send('s1', { to: jid(B), content: { type: 'text', text: 'x' } })
    t.sandbox.failNext('send')
    expect(await caught(send)).to.include({ code: 'NETWORK_UNAVAILABLE', message: 'WhatsApp is temporarily unavailable. Please try again.' })
    await send()
    t.sandbox.failNext('send', new GatewayError('NUMBER_NOT_REGISTERED'), { sessionId: 'other', times: 2 })
    await send()
    t.sandbox.failNext('profile', new Error('boom'), { times: 2 })
    expect((await caught(() => t.driver.profile('s1', { op: 'get' }))).message).to.equal('boom')
    expect((await caught(() => t.driver.profile('s1', { op: 'get' }))).message).to.equal('boom')
    await t.driver.profile('s1', { op: 'get' })
    t.sandbox.failNext('open')
    t.sandbox.clearFaults()
    await t.driver.open('s3', { auth: t.auth('s3') })
  })
})
