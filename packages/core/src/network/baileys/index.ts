/**
 * `@switchboard/core/baileys`: the WhatsApp network driver over Baileys 7.0.0-rc14. The only part
 * of Switchboard that imports Baileys; load it only when the real network is wanted.
 * @module
 */
export { BaileysDriver, createBaileysDriver, REGISTERED_TTL_MS } from './driver.js'
export { PINNED_VERSION } from './settings.js'
export type { BaileysDriverOptions, DownloadMedia, VersionLookup } from './settings.js'
export type { ReconnectSettings } from './reconnect-policy.js'
export { DEFAULT_RECONNECT } from './reconnect-policy.js'
export type { BaileysSocket, MakeSocket } from './socket.js'
