import { expect } from 'chai'
import { MemoryWireWorld } from '../../src/doors/wire/memory-world.js'
import { memoryBackend, WireState } from '../../src/doors/wire/state.js'
import { restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { linkedClient, startHarness, TestClient, type Harness } from './helpers.js'

const ALICE = '15550001111'
const BOB = '15550002222'

const texts = (c: TestClient) =>
  c.events.flatMap((e) => (e.event === 'messages.upsert' ? e.data.messages.map((m) => m.message?.conversation) : []))

describe('protocol door: sessions and disconnects', function () {
  this.timeout(20_000)
  let h: Harness
  const clients: TestClient[] = []

  const world = () => {
    const w = new MemoryWireWorld()
    w.addAccount(ALICE, 'Alice')
    w.addAccount(BOB, 'Bob')
    return w
  }

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.stop()
    await h.close()
    restoreTrustAnchor()
  })

  it('logs a client back in with its stored credentials, no new scan', async () => {
    h = await startHarness(undefined, world())
    const first = await linkedClient(h, ALICE)
    await first.stop()
    const again = new TestClient(h.server.url, first.auth.creds, first.auth.keys)
    clients.push(again)
    await again.opened()
    expect(again.closes).to.deep.equal([])
    await h.world.sendAs(BOB, ALICE, { conversation: 'after restart' })
    await again.waitFor(() => (texts(again).includes('after restart') ? true : undefined), 'message')
  })

  it('keeps devices and Signal sessions across an emulator restart (persisted state)', async () => {
    const backend = memoryBackend()
    h = await startHarness(new WireState(backend), world())
    const client = await linkedClient(h, ALICE)
    await h.world.sendAs(BOB, ALICE, { conversation: 'before' })
    await client.waitFor(() => (texts(client).includes('before') ? true : undefined), 'before')
    await client.stop()
    await h.close()
    h = await startHarness(new WireState(backend), world())
    const again = new TestClient(h.server.url, client.auth.creds, client.auth.keys)
    clients.push(again)
    await again.opened()
    await h.world.sendAs(BOB, ALICE, { conversation: 'after' })
    await again.waitFor(() => (texts(again).includes('after') ? true : undefined), 'after')
  })

  it('delivers messages sent while the client was away when it logs back in (offline)', async () => {
    h = await startHarness(undefined, world())
    const first = await linkedClient(h, ALICE)
    await first.stop()
    await h.world.sendAs(BOB, ALICE, { conversation: 'while away' })
    const again = new TestClient(h.server.url, first.auth.creds, first.auth.keys)
    clients.push(again)
    const got = await again.waitFor((ev) => {
      for (const e of ev) {
        if (e.event !== 'messages.upsert') continue
        for (const m of e.data.messages) if (m.message?.conversation === 'while away') return e.data.type
      }
      return undefined
    }, 'offline message')
    expect(got).to.equal('append')
  })

  it('reconnects after a dropped connection (428) and comes back open', async () => {
    h = await startHarness(undefined, world())
    const client = await linkedClient(h, ALICE)
    clients.push(client)
    expect(h.emulator.drop(ALICE, 1)).to.equal(true)
    await client.opened(2)
    expect(client.closes).to.deep.equal([515, 428])
  })

  it('logs the client out (401) when the account unlinks it', async () => {
    h = await startHarness(undefined, world())
    const client = await linkedClient(h, ALICE)
    clients.push(client)
    await h.emulator.unlink(ALICE, 1)
    await client.closedWith(401)
    expect(await h.emulator.linkedDevices(ALICE)).to.deep.equal([])
    expect(h.world.links.map((l) => l.state)).to.deep.equal(['linked', 'unlink'])
    const again = new TestClient(h.server.url, client.auth.creds, client.auth.keys)
    clients.push(again)
    await again.closedWith(401)
  })

  it('marks the older client replaced (440) when the same device logs in twice', async () => {
    h = await startHarness(undefined, world())
    const first = await linkedClient(h, ALICE)
    clients.push(first)
    const second = new TestClient(h.server.url, first.auth.creds, first.auth.keys)
    clients.push(second)
    await second.opened()
    await first.closedWith(440)
  })

  it('forgets the device when the client logs out', async () => {
    h = await startHarness(undefined, world())
    const client = await linkedClient(h, ALICE)
    clients.push(client)
    await client.sock.logout()
    await client.closedWith(401)
    await client.waitFor(() => (h.world.links.some((l) => l.state === 'logout') ? true : undefined), 'logout')
    expect(await h.emulator.linkedDevices(ALICE)).to.deep.equal([])
  })
})
