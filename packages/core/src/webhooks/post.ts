/**
 * One HTTP attempt of one delivery: sign, POST with a clock-driven timeout, classify the outcome.
 * @module
 */
import type { Clock } from '../kernel/clock.js'
import { unixSeconds } from '../kernel/clock.js'
import { signWebhook, WEBHOOK_USER_AGENT } from './signing.js'

/** Where a session's events go. Resolved again before every attempt. */
export interface WebhookTarget {
  /** Posted to exactly as given (query string included). */
  url: string
  /** `whsec_…`, the session's signing secret. */
  secret: string
}

/** The part of a fetch `Response` the outbox reads. */
export interface WebhookResponse {
  readonly status: number
  readonly body?: { cancel(reason?: unknown): Promise<void> } | null
}

/** The part of `fetch` the outbox uses; the global `fetch` fits. */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<WebhookResponse>

export type AttemptOutcome = { ok: true; status: number } | { ok: false; error: string; status?: number }

export interface PostWebhookInput {
  fetch: WebhookFetch
  clock: Clock
  timeoutMs: number
  target: WebhookTarget
  id: string
  body: string
  /** Lets the caller abort the attempt (e.g. the session was deleted). */
  signal?: AbortSignal
}

class AttemptTimeout extends Error {}

function describeFailure(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; cause?: { code?: unknown } } | null | undefined
  const message = typeof e?.message === 'string' ? e.message : String(err)
  const code = typeof e?.cause?.code === 'string' ? e.cause.code : typeof e?.code === 'string' ? e.code : undefined
  return code === undefined || message.includes(code) ? message : `${message} (${code})`
}

/**
 * Posts one signed attempt. Any 2xx is success; any other status, a network error or no answer
 * within `timeoutMs` (headers included) is a failure with its reason. Redirects are not followed:
 * fetch would turn a 301/302 POST into a GET, so a 3xx is a failure like any non-2xx.
 */
export async function postWebhook(input: PostWebhookInput): Promise<AttemptOutcome> {
  const { clock, timeoutMs, target, id, body } = input
  const headers = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    ...signWebhook(target.secret, { id, timestamp: unixSeconds(clock.now()), body }),
  }
  const controller = new AbortController()
  // The race bounds the attempt even when a fetch implementation ignores its signal.
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true })
  })
  aborted.catch(() => {})
  const onAbort = (): void => controller.abort(input.signal?.reason)
  if (input.signal?.aborted) return { ok: false, error: 'aborted' }
  input.signal?.addEventListener('abort', onAbort, { once: true })
  const timer = clock.setTimer(() => controller.abort(new AttemptTimeout()), timeoutMs)
  try {
    const response = await Promise.race([
      input.fetch(target.url, { method: 'POST', headers, body, redirect: 'manual', signal: controller.signal }),
      aborted,
    ])
    // The answer's body means nothing to us; cancelling frees the connection.
    await response.body?.cancel().catch(() => {})
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status }
    return { ok: false, status: response.status, error: `HTTP ${response.status}` }
  } catch (err) {
    if (controller.signal.reason instanceof AttemptTimeout) return { ok: false, error: `timeout after ${timeoutMs} ms` }
    if (controller.signal.aborted) return { ok: false, error: 'aborted' }
    return { ok: false, error: describeFailure(err) }
  } finally {
    clock.clearTimer(timer)
    input.signal?.removeEventListener('abort', onAbort)
  }
}
