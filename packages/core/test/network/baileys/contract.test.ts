/**
 * The network-driver contract, run against the Baileys driver on fake sockets talking to a tiny
 * fake WhatsApp (support/fake-whatsapp.ts).
 */
import { createBaileysDriver } from '../../../src/network/baileys/driver.js'
import { runDriverContract, type DriverHarness } from '../../../src/testing/driver-contract.js'
import { createTestClock } from '../../../src/testing/test-clock.js'
import type { Me } from '../../../src/network/types.js'
import { bindingLogger, FakeWhatsApp } from './support/fake-whatsapp.js'
import { memoryAuthStore, type MemoryAuthStore } from './support/memory-auth-store.js'

const ME_PHONE = '15550001111'
const PEERS = ['15550002222', '15550003333']

runDriverContract('Baileys driver on a fake socket', async () => {
  const clock = createTestClock()
  const world = new FakeWhatsApp(clock, ME_PHONE, PEERS)
  const stores = new Map<string, MemoryAuthStore>()
  const makeDriver = () => createBaileysDriver({ clock, logger: bindingLogger(), makeSocket: world.makeSocket, random: () => 0.5 })
  const authFor = (sessionId: string) => {
    let store = stores.get(sessionId)
    if (!store) stores.set(sessionId, (store = memoryAuthStore()))
    return store
  }
  const harness: DriverHarness = {
    driver: makeDriver(),
    clock,
    me: { phone: ME_PHONE },
    peers: PEERS.map((phone) => world.peer(phone)),
    unregisteredPhone: '15550009990',
    authFor,
    async link(sessionId) {
      let me: Me | undefined
      const off = harness.driver.on('connection.update', (u) => {
        if (u.sessionId === sessionId && u.state === 'open') me = u.me
      })
      try {
        await harness.driver.open(sessionId, { auth: authFor(sessionId) })
        await world.scan(await world.waitFor('a QR', () => world.qrOf(sessionId)))
        return await world.waitFor('open', () => me)
      } finally {
        off()
      }
    },
    scan: (qr) => world.scan(qr),
    enterCode: (code) => world.enterCode(code),
    restart: async () => (harness.driver = makeDriver()),
    drop: async (sessionId) => world.drop(sessionId),
    unlinkFromPhone: async (sessionId) => world.unlink(sessionId),
    close: () => harness.driver.shutdown(),
  }
  return harness
})
