/**
 * The sandbox as a driver-contract harness: its in-process door, a test clock, and three
 * accounts (one to link sessions to, two peers).
 */
import { sequentialIds } from '@switchboard/core'
import type { Me } from '@switchboard/core'
import { createTestClock } from '@switchboard/core/testing'
import type { DriverHarness, HarnessPeer } from '@switchboard/core/testing'
import { createSandbox } from '../../src/sandbox.js'
import type { Sandbox } from '../../src/sandbox-api.js'
import { MemoryAuthStore, MemoryStore } from './memory-store.js'
import { sandboxPeer } from './sandbox-peer.js'

export const ME = '15550001111'
export const PEER_1 = '15550002222'
export const PEER_2 = '15550003333'
export const UNREGISTERED = '15550009999'

export async function makeSandboxHarness(): Promise<DriverHarness & { sandbox: () => Sandbox }> {
  const store = new MemoryStore()
  const clock = createTestClock()
  const newId = sequentialIds('sbx')
  const open = async (): Promise<Sandbox> => {
    const s = createSandbox({ store, clock, newId })
    await s.load()
    return s
  }
  let sandbox = await open()
  for (const phoneNumber of [ME, PEER_1, PEER_2]) await sandbox.accounts.create({ phoneNumber })
  const auths = new Map<string, MemoryAuthStore>()

  const peer = (phone: string): HarnessPeer => sandboxPeer(() => sandbox, phone)

  const harness: DriverHarness & { sandbox: () => Sandbox } = {
    driver: sandbox.driver(),
    clock,
    me: { phone: ME },
    peers: [peer(PEER_1), peer(PEER_2)],
    unregisteredPhone: UNREGISTERED,
    sandbox: () => sandbox,
    authFor(sessionId) {
      let auth = auths.get(sessionId)
      if (!auth) auths.set(sessionId, (auth = new MemoryAuthStore()))
      return auth
    },
    async link(sessionId): Promise<Me> {
      const driver = harness.driver
      let qr: string | undefined
      let me: Me | undefined
      const off = driver.on('connection.update', (u) => {
        if (u.sessionId !== sessionId) return
        if (u.state === 'qr') qr = u.qr
        if (u.state === 'open') me = u.me
      })
      try {
        await driver.open(sessionId, { auth: harness.authFor(sessionId) })
        await clock.tick(1000)
        if (qr === undefined) throw new Error(`no QR for ${sessionId}`)
        await sandbox.scan(ME, qr)
        await clock.tick(200)
        if (!me) throw new Error(`${sessionId} did not open`)
        return me
      } finally {
        off()
      }
    },
    scan: async (qr) => void (await sandbox.scan(ME, qr)),
    enterCode: async (code) => void (await sandbox.enterCode(ME, code)),
    async restart() {
      await sandbox.close()
      sandbox = await open()
      return sandbox.driver()
    },
    drop: (sessionId) => sandbox.drop(sessionId),
    unlinkFromPhone: (sessionId) => sandbox.unlink(ME, sessionId),
    close: () => sandbox.close(),
  }
  return harness
}
