/**
 * The driver contract suite, run by the production Baileys driver through the protocol door.
 */
import { runDriverContract } from '@switchboard/core/testing'
import { makeWireHarness } from './wire-harness.js'

describe('protocol door', function () {
  this.timeout(20_000)
  runDriverContract('Baileys driver through the protocol door (sandbox-wire)', makeWireHarness)
})
