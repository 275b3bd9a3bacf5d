import { expect } from 'chai'
import { restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { startHarness, TestClient, type Harness } from './helpers.js'

describe('protocol door: linking', function () {
  this.timeout(20_000)
  let h: Harness
  const clients: TestClient[] = []

  beforeEach(async () => {
    h = await startHarness()
    h.world.addAccount('15550001111', 'Alice')
  })

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop()
    await h.close()
    restoreTrustAnchor()
  })

  it('links an unmodified Baileys client by QR, restarts on 515 and opens', async () => {
    const client = new TestClient(h.server.url)
    clients.push(client)
    const qr = await client.qr()
    expect(qr).to.match(/^https:\/\/wa\.me\/settings\/linked_devices#/)
    const device = await h.emulator.scan('15550001111', qr, 'session-1')
    expect(device).to.deep.include({ phone: '15550001111', deviceId: 1, label: 'session-1' })
    await client.opened()
    expect(client.closes).to.deep.equal([515])
    expect(client.sock.user?.id).to.equal('15550001111:1@s.whatsapp.net')
    expect(client.sock.user?.lid).to.match(/^\d+:1@lid$/)
  })
})

describe('protocol door: linking by pairing code', function () {
  this.timeout(20_000)
  let h: Harness
  let client: TestClient

  beforeEach(async () => {
    h = await startHarness()
    h.world.addAccount('15550001111', 'Alice')
    client = new TestClient(h.server.url)
    await client.qr()
  })

  afterEach(async () => {
    await client.stop()
    await h.close()
    restoreTrustAnchor()
  })

  it('links when the account enters the code the client shows', async () => {
    const code = await client.sock.requestPairingCode('15550001111')
    expect(code).to.have.length(8)
    const device = await h.emulator.enterPairingCode('15550001111', code, 's-code')
    expect(device).to.deep.include({ phone: '15550001111', deviceId: 1, label: 's-code' })
    await client.opened()
    expect(client.closes).to.deep.equal([515])
    expect(client.sock.user?.id).to.equal('15550001111:1@s.whatsapp.net')
  })

  it('refuses a wrong code, and still takes the right one afterwards', async () => {
    const code = await client.sock.requestPairingCode('15550001111')
    const wrong = code.startsWith('A') ? 'B' + code.slice(1) : 'A' + code.slice(1)
    await h.emulator.enterPairingCode('15550001111', wrong).then(
      () => expect.fail('accepted a wrong code'),
      (err: Error) => expect(err.message).to.equal('Invalid or expired pairing code'),
    )
    await h.emulator.enterPairingCode('15550001111', code)
    await client.opened()
  })

  it('refuses a code when no companion asked for one for that number', async () => {
    await h.emulator.enterPairingCode('15550001111', 'ABCDEFGH').then(
      () => expect.fail('accepted'),
      (err: Error) => expect(err.message).to.equal('Invalid or expired pairing code'),
    )
  })
})
