/**
 * `@switchboard/sandbox`: a simulated WhatsApp network for building and testing without a phone.
 *
 * ```ts
 * const sandbox = createSandbox({ store, clock })
 * await sandbox.load()
 * const gateway = createGateway({ store, network: sandbox.driver(), clock })
 * await sandbox.accounts.create({ phoneNumber: '15550001111' })
 * ```
 * @module
 */
export { createSandbox } from './sandbox.js'
export type {
  AccountActions,
  Sandbox,
  SandboxAccount,
  SandboxLink,
  SandboxOptions,
  SendAsInput,
} from './sandbox-api.js'
export { SANDBOX_OPERATIONS, SANDBOX_ROUTES } from './control.js'
export type { SandboxOperationName } from './control.js'
export type { FaultOp, FaultOptions } from './faults.js'
export type { AccountChanges, NewAccount } from './world/accounts.js'
export type { PresenceRecord } from './world/chats.js'
export type { InboxMessage } from './world/views.js'
export { MAX_NAME_LENGTH } from './world/accounts.js'
export { PAIRING_ALPHABET } from './world/ids.js'
