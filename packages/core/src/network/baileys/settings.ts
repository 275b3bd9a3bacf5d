/**
 * Options of the Baileys driver and their defaults.
 * @module
 */
import {
  Browsers,
  DEFAULT_CONNECTION_CONFIG,
  downloadMediaMessage,
  fetchLatestWaWebVersion,
  makeWASocket,
  type SocketConfig,
  type WABrowserDescription,
  type WAVersion,
} from '@whiskeysockets/baileys'
import type { Clock } from '../../kernel/clock.js'
import type { Logger } from '../../kernel/logger.js'
import { DEFAULT_RECONNECT, type ReconnectSettings } from './reconnect-policy.js'
import type { MakeSocket } from './socket.js'

/** The WhatsApp Web version this driver was built against (Baileys 7.0.0-rc14's bundled one). */
export const PINNED_VERSION: WAVersion = [...DEFAULT_CONNECTION_CONFIG.version] as WAVersion

export type VersionLookup = () => Promise<{ version: WAVersion; isLatest: boolean; error?: unknown }>
export type DownloadMedia = typeof downloadMediaMessage

export interface BaileysDriverOptions {
  clock: Clock
  logger: Logger
  /** Socket factory. @default makeWASocket */
  makeSocket?: MakeSocket
  /** Shown under Linked Devices: a full description or an app name. @default Browsers.ubuntu('Switchboard') */
  browser?: WABrowserDescription | string
  /** WhatsApp Web version to announce. @default {@link PINNED_VERSION} */
  version?: WAVersion
  /** Look the current WhatsApp Web version up at the first connection (fails soft to `version`). @default false */
  checkLatestVersion?: boolean
  /** The version lookup used by `checkLatestVersion`. @default fetchLatestWaWebVersion */
  lookupVersion?: VersionLookup
  /** How long the version lookup may take. @default 5000 */
  versionLookupTimeoutMs?: number
  /** WebSocket URL override, for tests and the sandbox's protocol door only. */
  socketUrl?: string
  /** Randomness for backoff jitter. @default Math.random */
  random?: () => number
  reconnect?: Partial<ReconnectSettings>
  /** Extra socket settings (agent, fetchAgent, options, timeouts…). The driver's own settings win. */
  socketConfig?: Partial<SocketConfig>
  /** Media downloader (tests inject one; the default fetches from WhatsApp's media hosts). */
  downloadMedia?: DownloadMedia
  /** How long a pairing-code request waits for the first QR. @default 30000 */
  pairingWaitMs?: number
}

export interface ResolvedSettings {
  clock: Clock
  logger: Logger
  makeSocket: MakeSocket
  browser: WABrowserDescription
  socketUrl: string | undefined
  random: () => number
  reconnect: ReconnectSettings
  socketConfig: Partial<SocketConfig>
  downloadMedia: DownloadMedia
  pairingWaitMs: number
  /** The version to use, looked up once per driver. */
  version: () => Promise<WAVersion>
}

export function resolveSettings(options: BaileysDriverOptions): ResolvedSettings {
  const pinned = options.version ?? PINNED_VERSION
  const lookup = options.lookupVersion ?? fetchLatestWaWebVersion
  const timeoutMs = options.versionLookupTimeoutMs ?? 5_000
  let version: Promise<WAVersion> | undefined
  const lookupOnce = async (): Promise<WAVersion> => {
    let timer: ReturnType<Clock["setTimer"]> | undefined
    const timeout = new Promise<undefined>((resolve) => (timer = options.clock.setTimer(() => resolve(undefined), timeoutMs)))
    try {
      const found = await Promise.race([lookup().catch(() => undefined), timeout])
      if (found && found.isLatest && !found.error) return found.version
      options.logger.warn({ err: found?.error }, 'WhatsApp version lookup failed; using the pinned version')
      return pinned
    } finally {
      if (timer) options.clock.clearTimer(timer)
    }
  }
  return {
    clock: options.clock,
    logger: options.logger,
    makeSocket: options.makeSocket ?? makeWASocket,
    browser: typeof options.browser === 'string' ? Browsers.ubuntu(options.browser) : (options.browser ?? Browsers.ubuntu('Switchboard')),
    socketUrl: options.socketUrl,
    random: options.random ?? Math.random,
    reconnect: { ...DEFAULT_RECONNECT, ...options.reconnect },
    socketConfig: options.socketConfig ?? {},
    downloadMedia: options.downloadMedia ?? downloadMediaMessage,
    pairingWaitMs: options.pairingWaitMs ?? 30_000,
    version: () => (version ??= options.checkLatestVersion ? lookupOnce() : Promise.resolve(pinned)),
  }
}
