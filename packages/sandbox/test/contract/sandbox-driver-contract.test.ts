import { runDriverContract } from '@switchboard/core/testing'
import { makeSandboxHarness } from '../support/sandbox-harness.js'

runDriverContract('sandbox in-process door', makeSandboxHarness)
