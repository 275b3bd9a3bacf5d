/**
 * Options of {@link createGateway}, with every default in one commented table.
 * @module
 */
import type { Clock } from './kernel/clock.js'
import type { NewId } from './kernel/ids.js'
import type { Logger } from './kernel/logger.js'
import type { NetworkDriver } from './network/driver.js'
import type { Store } from './store/store.js'

export interface GatewayOptions {
  /** Where everything is kept (`openStore(uri)`). */
  store: Store
  /** The network: `sandbox.driver()`, or the Baileys driver from `@switchboard/core/baileys`. */
  network: NetworkDriver
  /**
   * The master admin key (`wamk_` + at least 32 characters). Without it the gateway uses the one it
   * generated on its first start, or generates one now and returns it once in `generatedAdminKey`.
   */
  adminKey?: string | undefined
  clock?: Clock
  logger?: Logger
  newId?: NewId
  /** Outbound HTTP (webhooks, media downloads). @default globalThis.fetch */
  fetch?: typeof fetch
  /** Randomness for jitter. @default Math.random */
  random?: () => number
  /** Limits of the master admin key and its sessions. */
  limits?: Settings<typeof DEFAULTS.limits>
  webhooks?: Settings<typeof DEFAULTS.webhooks>
  messages?: Settings<typeof DEFAULTS.messages>
  sessions?: Settings<typeof DEFAULTS.sessions>
}

/** Optional numeric settings (`undefined` means the default). */
type Settings<T> = { [K in keyof T]?: number | undefined }

export const DEFAULTS = {
  limits: {
    /** Requests per minute per key. */
    general: 100,
    /** Messages per minute per session. */
    messages: 30,
    /** Session creations per hour per account key. */
    sessions: 10,
  },
  webhooks: {
    /** First retry delay of a failed delivery (then exponential with jitter). */
    retryBaseMs: 1_000,
    /** Cap on one retry delay: 1 hour. */
    retryMaxMs: 3_600_000,
    /** Keep retrying for 25 hours, then dead-letter. */
    retryForMs: 25 * 3_600_000,
    /** A receiver must answer within 5 seconds (spec). */
    timeoutMs: 5_000,
  },
  messages: {
    /** decisions.md: 65,536 characters. */
    maxTextLength: 65_536,
    /** Message records are kept at least 30 days. */
    retentionMs: 30 * 24 * 3_600_000,
    /** How often old records are swept: daily. */
    sweepEveryMs: 24 * 3_600_000,
  },
  sessions: {
    /** Spec: QR polling at most once per 5 seconds per session. */
    qrPollIntervalMs: 5_000,
    /** How long a pairing-code request waits for a starting session to show its QR. */
    pairingWaitMs: 15_000,
  },
} as const

/** `defaults` overridden by the defined values of `given`. */
export function withDefaults<T extends Record<string, number>>(defaults: T, given: Settings<T> | undefined): { [K in keyof T]: number } {
  const out: Record<string, number> = { ...defaults }
  for (const [key, value] of Object.entries(given ?? {})) if (value !== undefined) out[key] = value
  return out as { [K in keyof T]: number }
}
