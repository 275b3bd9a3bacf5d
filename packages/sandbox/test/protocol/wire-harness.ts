/**
 * The production Baileys driver through the protocol door, as a driver-contract harness: a wire
 * sandbox on a loopback port, the driver pointed at it (`socketUrl`), the trust anchor set to the
 * emulator's root, and three accounts. Real time throughout (Baileys runs on real timers).
 */
import { createAuthStore, openStore, silentLogger, systemClock } from '@switchboard/core'
import type { AuthStore, Me, NetworkDriver, Store } from '@switchboard/core'
import { createBaileysDriver } from '@switchboard/core/baileys'
import type { DriverHarness, HarnessPeer } from '@switchboard/core/testing'
import { applyTrustAnchor, restoreTrustAnchor } from '../../src/doors/wire/trust-anchor.js'
import { startWireSandbox, type WireSandbox } from '../../src/doors/wire/wire-sandbox.js'
import type { LinkRequest } from '../../src/doors/wire/wire-world.js'
import './baileys-timers.js'
import './quiet-libsignal.js'
import { sandboxPeer } from '../support/sandbox-peer.js'

export const ME = '15550001111'
export const PEER_1 = '15550002222'
export const PEER_2 = '15550003333'
export const UNREGISTERED = '15550009999'

/** What the wire door cannot do yet; those contract tests are skipped with this reason. */
export const WIRE_UNSUPPORTED: DriverHarness['unsupported'] = {}

export async function makeWireHarness(): Promise<DriverHarness & { wire: () => WireSandbox }> {
  const lastQr = new Map<string, string>()
  const codes = new Map<string, string>()
  const sessionIdFor = (request: LinkRequest): string | undefined => {
    if (request.method === 'qr') return [...lastQr].find(([, qr]) => qr === request.qr)?.[0]
    return [...codes].find(([, code]) => code === request.code)?.[0]
  }
  const store: Store = await openStore('memory')
  const wire = await startWireSandbox({ store, sessionIdFor })
  applyTrustAnchor(wire.rootPublicKey)
  const sandbox = wire.sandbox
  for (const phoneNumber of [ME, PEER_1, PEER_2]) await sandbox.accounts.create({ phoneNumber })
  const authStore: Store = await openStore('memory')
  const auths = new Map<string, AuthStore>()

  const newDriver = (): NetworkDriver => {
    const inner = createBaileysDriver({ clock: systemClock, logger: silentLogger, socketUrl: wire.url })
    inner.on('connection.update', (u) => {
      if (u.state === 'qr') lastQr.set(u.sessionId, u.qr)
    })
    // Remember which session asked for which code, so the door names the session after it.
    return new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'requestPairingCode') {
          return async (sessionId: string, phone: string) => {
            const code = await target.requestPairingCode(sessionId, phone)
            codes.set(sessionId, code)
            return code
          }
        }
        const value = Reflect.get(target, prop, receiver) as unknown
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
  }

  const peer = (phone: string): HarnessPeer => sandboxPeer(() => sandbox, phone)

  const harness: DriverHarness & { wire: () => WireSandbox } = {
    driver: newDriver(),
    me: { phone: ME },
    peers: [peer(PEER_1), peer(PEER_2)],
    unregisteredPhone: UNREGISTERED,
    unsupported: WIRE_UNSUPPORTED,
    wire: () => wire,
    authFor(sessionId) {
      let auth = auths.get(sessionId)
      if (!auth) auths.set(sessionId, (auth = createAuthStore(authStore, sessionId)))
      return auth
    },
    async link(sessionId): Promise<Me> {
      const driver = harness.driver
      let me: Me | undefined
      let qr: string | undefined
      const off = driver.on('connection.update', (u) => {
        if (u.sessionId !== sessionId) return
        if (u.state === 'qr') qr ??= u.qr
        if (u.state === 'open') me = u.me
      })
      try {
        await driver.open(sessionId, { auth: harness.authFor(sessionId) })
        await until(() => qr, `QR of ${sessionId}`)
        await sandbox.scan(ME, qr!)
        return await until(() => me, `${sessionId} open`)
      } finally {
        off()
      }
    },
    scan: async (qr) => void (await sandbox.scan(ME, qr)),
    enterCode: async (code) => void (await sandbox.enterCode(ME, code)),
    async restart() {
      return newDriver()
    },
    drop: (sessionId) => sandbox.drop(sessionId),
    unlinkFromPhone: (sessionId) => sandbox.unlink(ME, sessionId),
    async close() {
      await harness.driver.shutdown()
      await wire.close()
      await authStore.close()
      restoreTrustAnchor()
    },
  }
  return harness
}

async function until<T>(find: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
