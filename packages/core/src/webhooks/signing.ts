/**
 * Webhook signatures after the Standard Webhooks convention (https://www.standardwebhooks.com):
 * a per-session secret `whsec_<base64 key>`, and on every request `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`. Receivers can check requests with any Standard Webhooks library or with
 * {@link verifyWebhook}.
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** Prefix of every webhook secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

/** Sent as `User-Agent` on every delivery. */
export const WEBHOOK_USER_AGENT = 'Switchboard-Webhooks/1'

/** How far `webhook-timestamp` may be from the receiver's clock by default (the convention's 5 minutes). */
export const DEFAULT_WEBHOOK_TOLERANCE_SEC = 300

/** The three signature headers of one delivery attempt (a type alias, so it fits header-record parameters). */
export type WebhookSignatureHeaders = {
  'webhook-id': string
  /** Unix seconds, as a decimal string. */
  'webhook-timestamp': string
  /** `v1,<base64 signature>`. */
  'webhook-signature': string
}

/** What is signed: the delivery's id, the attempt's Unix seconds and the exact body. */
export interface WebhookMessage {
  id: string
  /** Unix seconds of the attempt. */
  timestamp: number
  body: string | Uint8Array
}

/** A new secret: `whsec_` + base64 of 32 random bytes. Returned once to the user, stored by the caller. */
export function createWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64')
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_` (the prefix is optional, as in the reference libraries). */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret
  return Buffer.from(encoded, 'base64')
}

function signature(key: Buffer, id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest()
}

/**
 * Signs one delivery attempt and returns its three headers.
 * @example
 * const headers = signWebhook(secret, { id: 'msg_1', timestamp: 1769850902, body: '{"event":"ready"}' })
 * // headers['webhook-signature'] === 'v1,…'
 */
export function signWebhook(secret: string, message: WebhookMessage): WebhookSignatureHeaders {
  const timestamp = String(Math.floor(message.timestamp))
  const sig = signature(secretKey(secret), message.id, timestamp, message.body)
  return {
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${sig.toString('base64')}`,
  }
}

/** Request headers as Node (`req.headers`) or fetch (`Headers`) give them. */
export type WebhookHeadersInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>

export interface VerifyWebhookOptions {
  /** The receiver's current time in Unix seconds. */
  nowSec: number
  /** @default 300 */
  toleranceSec?: number
}

export type WebhookVerification =
  | { ok: true; id: string; timestamp: number }
  | { ok: false; reason: 'missing headers' | 'invalid timestamp' | 'timestamp too old' | 'timestamp too new' | 'no matching signature' }

function header(headers: WebhookHeadersInput, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value[0] : (value as string | undefined)
}

/**
 * Checks a received webhook: the timestamp must be within `toleranceSec` of `nowSec`, and one of
 * the space-separated `v1,` signatures must match (several appear while a secret is rotated).
 * Pass the raw body exactly as received.
 * @example
 * const result = verifyWebhook(secret, req.headers, rawBody, { nowSec: Math.floor(Date.now() / 1000) })
 * if (!result.ok) return res.writeHead(401).end()
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeadersInput,
  body: string | Uint8Array,
  options: VerifyWebhookOptions,
): WebhookVerification {
  const id = header(headers, 'webhook-id')
  const timestampText = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!id || !timestampText || !signatures) return { ok: false, reason: 'missing headers' }
  if (!/^\d+$/.test(timestampText)) return { ok: false, reason: 'invalid timestamp' }
  const timestamp = Number(timestampText)
  const tolerance = options.toleranceSec ?? DEFAULT_WEBHOOK_TOLERANCE_SEC
  if (timestamp < options.nowSec - tolerance) return { ok: false, reason: 'timestamp too old' }
  if (timestamp > options.nowSec + tolerance) return { ok: false, reason: 'timestamp too new' }

  const expected = signature(secretKey(secret), id, timestampText, body)
  for (const candidate of signatures.split(' ')) {
    const [version, encoded] = candidate.split(',', 2)
    if (version !== 'v1' || encoded === undefined) continue
    const given = Buffer.from(encoded, 'base64')
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, id, timestamp }
  }
  return { ok: false, reason: 'no matching signature' }
}
