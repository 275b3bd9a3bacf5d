import { Boom } from '@hapi/boom'
import { expect } from 'chai'
import { hasErrorCode } from '../../../src/errors/index.js'
import { PINNED_VERSION } from '../../../src/network/baileys/settings.js'
import { fixture, type ScriptStep } from './support/fixtures.js'
import { settle } from './support/fake-socket.js'
import { ME, openLinked, SESSION, setup } from './support/setup.js'

const qrLink = () => fixture<{ sockets: ScriptStep[][] }>('connection-qr-link.json').sockets
const pairing = () => fixture<{ sockets: ScriptStep[][] }>('connection-pairing-code.json').sockets
const closes = () => fixture<{ closes: Record<string, unknown> }>('disconnects.json').closes

describe('BaileysDriver connection', () => {
  it('creates one socket with the pinned version, browser, markOnlineOnConnect false and a child logger', async () => {
    const h = setup()
    await h.driver.open(SESSION, { auth: h.auth })
    expect(h.net.sockets).to.have.length(1)
    const config = h.net.last.config
    expect(config.version).to.deep.equal(PINNED_VERSION)
    expect(config.browser).to.deep.equal(['Ubuntu', 'Switchboard', '22.04.4'])
    expect(config.markOnlineOnConnect).to.equal(false)
    expect(config.waWebSocketUrl).to.equal(undefined)
    expect(config.logger).to.be.an('object')
    expect(config.getMessage).to.be.a('function')
    expect(config.cachedGroupMetadata).to.be.a('function')
    expect(config.auth.creds.registered).to.equal(false)
    expect(h.states()).to.deep.equal(['starting'])
  })

  it('passes the browser name, socket URL and socket extras through', async () => {
    const agent = { fake: 'agent' }
    const h = setup({ browser: 'Acme', socketUrl: 'ws://127.0.0.1:9/ws/chat', socketConfig: { agent: agent as never, connectTimeoutMs: 1234 } })
    await h.driver.open(SESSION, { auth: h.auth })
    const config = h.net.last.config
    expect(config.browser).to.deep.equal(['Ubuntu', 'Acme', '22.04.4'])
    expect(config.waWebSocketUrl).to.equal('ws://127.0.0.1:9/ws/chat')
    expect(config.agent).to.equal(agent)
    expect(config.connectTimeoutMs).to.equal(1234)
  })

  it('uses a looked-up version when asked, and falls back to the pinned one when the lookup fails', async () => {
    const ok = setup({ checkLatestVersion: true, lookupVersion: async () => ({ version: [2, 3000, 1], isLatest: true }) })
    await ok.driver.open(SESSION, { auth: ok.auth })
    expect(ok.net.last.config.version).to.deep.equal([2, 3000, 1])
    const offline = setup({ checkLatestVersion: true, lookupVersion: async () => ({ version: [2, 3000, 0], isLatest: false, error: new Error('offline') }) })
    await offline.driver.open(SESSION, { auth: offline.auth })
    expect(offline.net.last.config.version).to.deep.equal(PINNED_VERSION)
    const throwing = setup({ checkLatestVersion: true, lookupVersion: async () => Promise.reject(new Error('dns')) })
    await throwing.driver.open(SESSION, { auth: throwing.auth })
    expect(throwing.net.last.config.version).to.deep.equal(PINNED_VERSION)
  })

  it('gives up a version lookup that hangs after the timeout', async () => {
    const h = setup({ checkLatestVersion: true, versionLookupTimeoutMs: 1000, lookupVersion: () => new Promise(() => {}) })
    const opening = h.driver.open(SESSION, { auth: h.auth })
    await h.clock.tick(1000)
    await opening
    expect(h.net.last.config.version).to.deep.equal(PINNED_VERSION)
  })

  it('links by QR: qr (each ref), connecting, authenticated, then 515 restarts at once with the same creds and opens', async () => {
    const h = setup()
    await h.driver.open(SESSION, { auth: h.auth })
    const [first, second] = qrLink()
    const creds = h.net.last.config.auth.creds
    await h.net.last.play(first!)
    await h.settle()
    expect(h.net.sockets).to.have.length(2)
    expect(h.net.sockets[1]!.config.auth.creds).to.equal(creds)
    await h.net.last.play(second!)
    await h.settle()
    expect(h.states()).to.deep.equal(['starting', 'qr', 'qr', 'connecting', 'authenticated', 'open'])
    const qrs = h.of('connection.update').filter((u) => u.state === 'qr')
    expect(qrs.map((u) => (u as { qr: string }).qr)[0]).to.match(/^https:\/\/wa\.me\/settings\/linked_devices#2@q1Ref/)
    const authenticated = h.of('connection.update').find((u) => u.state === 'authenticated')
    expect(authenticated).to.deep.include({ sessionId: SESSION, me: { jid: ME.jid, phoneNumber: ME.phoneNumber, lid: ME.lid } })
    const open = h.of('connection.update').at(-1)
    expect(open).to.deep.equal({ sessionId: SESSION, state: 'open', me: ME })
    expect(h.auth.creds, 'creds saved').to.be.a('string')
    expect(JSON.parse(h.auth.creds!).me.id).to.equal('15550001111:12@s.whatsapp.net')
  })

  it('links by pairing code requested once the QR is up (digits only), then opens after 515', async () => {
    const h = setup()
    await h.driver.open(SESSION, { auth: h.auth })
    const [first, second, third] = pairing()
    const codePromise = h.driver.requestPairingCode(SESSION, '+1 (555) 000-1111')
    await settle()
    expect(h.net.last.callsOf('requestPairingCode')).to.deep.equal([])
    await h.net.last.play(first!)
    expect(await codePromise).to.equal('ABCD1234')
    expect(h.net.last.callsOf('requestPairingCode')).to.deep.equal([['15550001111', undefined]])
    await h.net.last.play(second!)
    await h.settle()
    await h.net.last.play(third!)
    await h.settle()
    expect(h.states()).to.deep.equal(['starting', 'qr', 'connecting', 'authenticated', 'open'])
    expect(h.of('connection.update').at(-1)).to.deep.include({ state: 'open' })
  })

  it('refuses pairing codes for unknown, linked or never-showing-QR sessions, and bad numbers', async () => {
    const h = setup({ pairingWaitMs: 1000 })
    const unknown = await h.driver.requestPairingCode('nope', '15550001111').catch((e: unknown) => e)
    expect(hasErrorCode(unknown, 'SESSION_NOT_STARTED')).to.equal(true)
    await h.driver.open(SESSION, { auth: h.auth })
    const bad = await h.driver.requestPairingCode(SESSION, '12').catch((e: unknown) => e)
    expect(hasErrorCode(bad, 'INVALID_PHONE_NUMBER')).to.equal(true)
    const waiting = h.driver.requestPairingCode(SESSION, '15550001111').catch((e: unknown) => e)
    await h.clock.tick(1000)
    const timedOut = await waiting
    expect(hasErrorCode(timedOut, 'QR_NOT_AVAILABLE')).to.equal(true)
    expect((timedOut as Error).message).to.equal('QR code not available yet. Session state: starting')

    const linked = setup()
    await openLinked(linked)
    const already = await linked.driver.requestPairingCode(SESSION, '15550001111').catch((e: unknown) => e)
    expect(hasErrorCode(already, 'ALREADY_AUTHENTICATED')).to.equal(true)
    expect((already as Error).message).to.equal('Already authenticated')
  })

  it('translates a pairing-code failure from Baileys', async () => {
    const h = setup()
    await h.driver.open(SESSION, { auth: h.auth })
    await h.net.last.play(pairing()[0]!)
    h.net.last.answers.requestPairingCode = () => {
      throw new Boom('Connection Closed', { statusCode: 428 })
    }
    const err = await h.driver.requestPairingCode(SESSION, '15550001111').catch((e: unknown) => e)
    expect(hasErrorCode(err, 'NETWORK_UNAVAILABLE')).to.equal(true)
  })

  it('restores a linked session without QR: starting, connecting, open', async () => {
    const h = setup()
    await openLinked(h)
    expect(h.states()).to.deep.equal(['starting', 'connecting', 'open'])
    expect(h.net.sockets).to.have.length(1)
  })

  it('discards creds of a pairing that never completed', async () => {
    const h = setup()
    await h.auth.writeCreds({ ...(await import('@whiskeysockets/baileys')).initAuthCreds(), me: { id: '15550001111@s.whatsapp.net', name: '~' } })
    await h.driver.open(SESSION, { auth: h.auth })
    expect(h.auth.clears).to.equal(1)
    expect(h.net.last.config.auth.creds.me).to.equal(undefined)
  })

  it('opening an open session is a no-op, and concurrent opens share one socket', async () => {
    const h = setup()
    await Promise.all([h.driver.open(SESSION, { auth: h.auth }), h.driver.open(SESSION, { auth: h.auth })])
    await h.driver.open(SESSION, { auth: h.auth })
    expect(h.net.sockets).to.have.length(1)
  })

  for (const [name, code, reason, state] of [
    ['loggedOut401', 401, 'logged_out', 'logged_out'],
    ['forbidden403', 403, 'logged_out', 'logged_out'],
    ['unknownLogout406', 406, 'banned', 'logged_out'],
  ] as const) {
    it(`treats ${code} as logged out: creds and keys wiped, no reconnect`, async () => {
      const h = setup()
      const socket = await openLinked(h)
      socket.emit('connection.update', closes()[name])
      await h.settle()
      await h.clock.runAll()
      expect(h.of('connection.update').at(-1)).to.deep.include({ state, reason })
      expect(h.auth.clears).to.equal(1)
      expect(h.auth.creds).to.equal(undefined)
      expect(h.net.sockets).to.have.length(1)
    })
  }

  it('treats 440 (replaced) as failed without reconnecting', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.emit('connection.update', closes()['replaced440'])
    await h.settle()
    await h.clock.runAll()
    expect(h.of('connection.update').at(-1)).to.deep.include({ state: 'failed', reason: 'replaced', error: 'Stream Errored (conflict)' })
    expect(h.net.sockets).to.have.length(1)
    expect(h.auth.clears).to.equal(0)
  })

  for (const [name, reason] of [
    ['timedOut408', 'connection_lost'],
    ['closed428', 'connection_lost'],
    ['badSession500', 'bad_session'],
    ['unavailable503', 'unavailable'],
  ] as const) {
    it(`reconnects after ${name} with backoff (disconnected, willReconnect) and comes back open`, async () => {
      const h = setup()
      const socket = await openLinked(h)
      socket.emit('connection.update', closes()[name])
      await h.settle()
      expect(h.of('connection.update').at(-1)).to.deep.include({ state: 'disconnected', reason, willReconnect: true })
      expect(h.net.sockets).to.have.length(1)
      await h.clock.tick(749)
      expect(h.net.sockets).to.have.length(1)
      await h.clock.tick(1)
      expect(h.net.sockets).to.have.length(2)
      expect(h.net.sockets[1]!.config.auth.creds).to.equal(socket.config.auth.creds)
      await h.net.last.play(fixture<{ sockets: ScriptStep[][] }>('connection-restore.json').sockets[0]!)
      await h.settle()
      expect(h.states().slice(-3)).to.deep.equal(['disconnected', 'connecting', 'open'])
    })
  }

  it('grows the backoff exponentially with jitter up to the cap, then ends failed', async () => {
    const h = setup({ reconnect: { baseMs: 1000, maxMs: 4000, maxAttempts: 4 }, random: () => 1 })
    await openLinked(h)
    const delays: number[] = []
    for (let i = 0; i < 4; i++) {
      const before = h.clock.now()
      h.net.last.emit('connection.update', closes()['closed428'])
      await h.settle()
      const count = h.net.sockets.length
      while (h.net.sockets.length === count) await h.clock.tick(100)
      delays.push(h.clock.now() - before)
    }
    expect(delays).to.deep.equal([1000, 2000, 4000, 4000])
    h.net.last.emit('connection.update', closes()['closed428'])
    await h.settle()
    expect(h.of('connection.update').at(-1)).to.deep.include({ state: 'failed', reason: 'connection_lost' })
    await h.clock.runAll()
    expect(h.net.sockets).to.have.length(5)
  })

  it('resets the attempt count after a connection that stayed open', async () => {
    const h = setup({ reconnect: { baseMs: 1000, maxMs: 60000, maxAttempts: 2, stableMs: 10_000 } })
    await openLinked(h)
    for (let i = 0; i < 4; i++) {
      await h.clock.tick(10_000)
      h.net.last.emit('connection.update', closes()['closed428'])
      await h.settle()
      await h.clock.tick(1000)
      await h.net.last.play([{ event: 'connection.update', data: { connection: 'open' } }])
    }
    expect(h.states()).to.not.include('failed')
  })

  it('starts a fresh QR round when the QR refs run out, then ends failed (qr_expired)', async () => {
    const h = setup({ reconnect: { maxQrRounds: 1 } })
    await h.driver.open(SESSION, { auth: h.auth })
    await h.net.last.play(qrLink()[0]!.slice(0, 2))
    h.net.last.emit('connection.update', closes()['qrEnded408'])
    await h.settle()
    expect(h.net.sockets).to.have.length(2)
    await h.net.last.play(qrLink()[0]!.slice(0, 2))
    h.net.last.emit('connection.update', closes()['qrEnded408'])
    await h.settle()
    expect(h.net.sockets).to.have.length(2)
    expect(h.of('connection.update').at(-1)).to.deep.include({ state: 'failed', reason: 'qr_expired' })
  })

  it('an intentional close never reconnects and reports closed; the creds stay', async () => {
    const h = setup()
    const socket = await openLinked(h)
    await h.driver.close(SESSION)
    await h.clock.runAll()
    expect(socket.callsOf('end')).to.deep.equal([[undefined]])
    expect(h.of('connection.update').at(-1)).to.deep.equal({ sessionId: SESSION, state: 'closed' })
    expect(h.net.sockets).to.have.length(1)
    expect(h.auth.creds).to.be.a('string')
    await h.driver.close(SESSION)
    expect(h.states().filter((s) => s === 'closed')).to.have.length(1)
  })

  it('close during a backoff wait cancels the reconnect', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.emit('connection.update', closes()['closed428'])
    await h.settle()
    await h.driver.close(SESSION)
    await h.clock.runAll()
    expect(h.net.sockets).to.have.length(1)
    expect(h.states().at(-1)).to.equal('closed')
  })

  it('logout unlinks the device, wipes creds and keys together, and reports closed', async () => {
    const h = setup()
    const socket = await openLinked(h)
    await h.auth.setKeys({ session: { 'x.0': { a: 1 } } })
    await h.driver.close(SESSION, { logout: true })
    expect(socket.callsOf('logout')).to.have.length(1)
    expect(h.auth.creds).to.equal(undefined)
    expect(h.auth.keys.size).to.equal(0)
    expect(h.states().at(-1)).to.equal('closed')
    await h.clock.runAll()
    expect(h.net.sockets).to.have.length(1)
  })

  it('logout of a stopped session still wipes its auth store', async () => {
    const h = setup()
    await openLinked(h)
    await h.driver.close(SESSION)
    await h.driver.close(SESSION, { logout: true })
    expect(h.auth.creds).to.equal(undefined)
  })

  it('a new open after logout starts a fresh link with a new socket', async () => {
    const h = setup()
    await openLinked(h)
    await h.driver.close(SESSION, { logout: true })
    await h.driver.open(SESSION, { auth: h.auth })
    expect(h.net.sockets).to.have.length(2)
    expect(h.net.last.config.auth.creds.me).to.equal(undefined)
  })

  it('ignores events of a socket that is no longer the live one', async () => {
    const h = setup()
    const socket = await openLinked(h)
    socket.emit('connection.update', closes()['restart515'])
    await h.settle()
    expect(h.net.sockets).to.have.length(2)
    socket.emit('connection.update', { qr: 'stale' })
    socket.emit('connection.update', { connection: 'open' })
    await h.settle()
    expect(h.states().filter((s) => s === 'qr')).to.deep.equal([])
  })

  it('shutdown closes every session without logging out', async () => {
    const h = setup()
    const socket = await openLinked(h)
    await h.driver.shutdown()
    expect(socket.callsOf('logout')).to.deep.equal([])
    expect(h.states().at(-1)).to.equal('closed')
    expect(h.auth.creds).to.be.a('string')
  })

  it('a socket factory that throws during a reconnect counts as a failed attempt', async () => {
    const h = setup({ reconnect: { baseMs: 100, maxMs: 100, maxAttempts: 2 } })
    await openLinked(h)
    h.net.failNext = 2
    h.net.last.emit('connection.update', closes()['closed428'])
    await h.settle()
    await h.clock.tick(100)
    await h.settle()
    expect(h.states().slice(-2)).to.deep.equal(['disconnected', 'disconnected'])
    await h.clock.tick(100)
    await h.settle()
    expect(h.of('connection.update').at(-1)).to.deep.include({ state: 'failed', error: 'socket factory broke' })
    expect(h.net.sockets).to.have.length(1)
  })
})
