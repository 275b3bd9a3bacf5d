/**
 * `@switchboard/sandbox/protocol`: the sandbox's second door, a loopback server that speaks the
 * WhatsApp Web protocol (Noise handshake, WABinary, Signal), so real Baileys clients, the
 * production driver among them, run end to end against the sandbox world with no network.
 *
 * ```ts
 * const wire = await startWireSandbox({ store })   // or startProtocolServer({ sandbox, store })
 * const driver = createBaileysDriver({ clock, logger, socketUrl: wire.url })
 * ```
 *
 * Test and `SWITCHBOARD_NETWORK=sandbox-wire` use only: it imports libsignal (GPL-3.0) and
 * Baileys internals, and it changes this process's Baileys trust anchor (see `applyTrustAnchor`).
 * @module
 */
export { startProtocolServer, startWireSandbox } from './wire-sandbox.js'
export type { ProtocolServer, ProtocolServerOptions, WireSandbox, WireSandboxOptions } from './wire-sandbox.js'
export { applyTrustAnchor, restoreTrustAnchor } from './trust-anchor.js'
export { WaEmulator } from './emulator.js'
export type { EmulatorOptions, GroupChange, MessageDelivery, ReceiptDelivery } from './emulator.js'
export { listenWire } from './server.js'
export { listenControl } from './control-http.js'
export type { ControlServer, ControlServerOptions } from './control-http.js'
export { MediaHost } from './media-host.js'
export type { EncryptedMedia, WireMediaType } from './media-host.js'
export type { WireServer } from './server.js'
export { SandboxWireWorld } from './sandbox-world.js'
export type { SandboxWireWorldOptions, SessionNamer } from './sandbox-world.js'
export { MemoryWireWorld } from './memory-world.js'
export { WireState, memoryBackend } from './state.js'
export type { WireStateBackend } from './state.js'
export { parseQr } from './pairing.js'
export type {
  LinkRequest,
  WireAccount,
  WireChatState,
  WireDevice,
  WireEvent,
  WireGroup,
  WireGroups,
  WireParticipantAction,
  WireReceiptStatus,
  WireSetting,
  WireWorld,
} from './wire-world.js'
