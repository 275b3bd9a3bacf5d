/**
 * The driver contract suite: what every {@link NetworkDriver} must do, run against a harness that
 * gives the driver and "the other side of the network" (an account sessions link to, peers that
 * send, read and react). The sandbox's in-process door, the Baileys driver over a fake socket and
 * the Baileys driver through the sandbox's protocol door all run it.
 *
 * ```ts
 * import { runDriverContract } from '@switchboard/core/testing'
 * runDriverContract('sandbox driver', async () => makeSandboxHarness())
 * ```
 *
 * A harness that cannot do something declares it (`unsupported`, or by leaving out an optional
 * member); the tests that need it are then skipped with the reason in their title, never passed.
 * Uses mocha's globals (`describe`, `it`, `beforeEach`, `afterEach`) and `node:assert`.
 * @module
 */
import type { NetworkDriver } from '../network/driver.js'
import { registerConnection } from './driver-contract/connection.js'
import { registerGroups } from './driver-contract/groups.js'
import { ContractKit, Recorder, type MochaGlobals } from './driver-contract/kit.js'
import { registerLinking } from './driver-contract/linking.js'
import { registerMessaging } from './driver-contract/messaging.js'
import { registerProfileAndContacts } from './driver-contract/profile-contacts.js'
import type { DriverHarness } from './driver-harness.js'

export type { DriverCapability, DriverHarness, HarnessPeer, PeerMessage } from './driver-harness.js'

/**
 * Registers the contract suite for one driver. `makeHarness` runs before every test and gives a
 * fresh network; the harness's `close()` runs after it.
 */
export function runDriverContract(name: string, makeHarness: () => Promise<DriverHarness>): void {
  const g = globalThis as unknown as Partial<MochaGlobals>
  if (!g.describe || !g.it || !g.beforeEach || !g.afterEach) throw new Error('runDriverContract must run under mocha (describe/it globals)')
  const mocha = g as MochaGlobals
  const kit = new ContractKit()

  mocha.describe(`driver contract: ${name}`, () => {
    mocha.beforeEach(async function () {
      kit.h = await makeHarness()
      kit.rec = new Recorder()
      kit.rec.attach(kit.h.driver)
    })

    mocha.afterEach(async function () {
      kit.rec.detach()
      await kit.h.close()
    })

    registerLinking(kit, mocha)
    registerMessaging(kit, mocha)
    registerGroups(kit, mocha)
    registerProfileAndContacts(kit, mocha)
    registerConnection(kit, mocha)
  })
}
