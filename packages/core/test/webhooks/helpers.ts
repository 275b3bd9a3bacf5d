/**
 * Builders and fakes for the webhooks tests: a recording fake fetch, a capturing logger, event
 * builders and a service factory on the test clock and the in-memory store.
 */
import { createHmac } from 'node:crypto'
import type { Logger } from '../../src/kernel/logger.js'
import { sequentialIds } from '../../src/kernel/ids.js'
import type { MessageEvent, MessageStatusEvent, ReadyEvent } from '../../src/schemas/events.js'
import type { Store } from '../../src/store/store.js'
import { createTestClock, type TestClock } from '../../src/testing/test-clock.js'
import type { WebhookFetch, WebhookResponse, WebhookServiceOptions, WebhookTarget } from '../../src/webhooks/index.js'
import { WebhookService } from '../../src/webhooks/index.js'
import { createMemoryStore } from '../support/memory-store.js'

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
export const OTHER_SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64')
export const HOOK_URL = 'https://hooks.example.com/wa'

/** The signature a Standard Webhooks receiver computes, written out independently of the code under test. */
export function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
}

export interface RecordedCall {
  url: string
  headers: Record<string, string>
  body: string
  /** Test-clock ms when the attempt was posted. */
  at: number
  signal: AbortSignal
}

export type Responder = (call: RecordedCall) => WebhookResponse | Promise<WebhookResponse>

export interface FakeFetch {
  fetch: WebhookFetch
  calls: RecordedCall[]
  /** Sets how the receiver answers from now on. */
  respond(responder: Responder): void
}

export function fakeFetch(clock: TestClock): FakeFetch {
  let responder: Responder = () => ({ status: 200 })
  const calls: RecordedCall[] = []
  const fetch: WebhookFetch = async (url, init) => {
    const call: RecordedCall = {
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body: String(init.body),
      at: clock.now(),
      signal: init.signal!,
    }
    calls.push(call)
    return responder(call)
  }
  return { fetch, calls, respond: (r) => (responder = r) }
}

export const status = (code: number): Responder => () => ({ status: code })
export const networkError: Responder = () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
}
/** Never answers and ignores the abort signal. */
export const hang: Responder = () => new Promise<never>(() => {})

export interface LogEntry {
  level: string
  obj: Record<string, unknown>
  msg: string | undefined
}

export function capturingLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = []
  const at =
    (level: string) =>
    (obj: object | string, msg?: string): void => {
      if (typeof obj === 'string') entries.push({ level, obj: {}, msg: obj })
      else entries.push({ level, obj: obj as Record<string, unknown>, msg })
    }
  const logger: Logger = {
    level: 'trace',
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
  }
  return { logger, entries }
}

export function aMessageEvent(sessionId: string, n: number): MessageEvent {
  return {
    event: 'message',
    sessionId,
    timestamp: '2026-01-31T09:15:02.123Z',
    message: {
      id: `MSG${n}`,
      from: '15550001111@s.whatsapp.net',
      to: '15550002222@s.whatsapp.net',
      body: `hello ${n}`,
      type: 'conversation',
      timestamp: 1769850902,
      hasMedia: false,
      fromMe: false,
      isGroup: false,
    },
  }
}

export function aStatusEvent(sessionId: string, status: 'sent' | 'delivered' | 'read'): MessageStatusEvent {
  return {
    event: 'message_status',
    sessionId,
    timestamp: '2026-01-31T09:15:02.123Z',
    statusUpdate: { messageId: 'MSG1', chatId: '15550002222@s.whatsapp.net', status, timestamp: 1769850902 },
  }
}

export function aReadyEvent(sessionId: string): ReadyEvent {
  return { event: 'ready', sessionId, timestamp: '2026-01-31T09:15:02.123Z', phoneNumber: '15550002222' }
}

export interface Harness {
  service: WebhookService
  clock: TestClock
  store: Store
  http: FakeFetch
  /** Session id → webhook; edit it to change or remove a session's webhook. */
  targets: Map<string, WebhookTarget>
  logs: LogEntry[]
  /** A new service over the same store, clock, fetch and targets (a restart). */
  restart(overrides?: Partial<WebhookServiceOptions>): WebhookService
  /** Lets background attempts finish without moving the clock. */
  settle(): Promise<void>
}

export function makeHarness(overrides: Partial<WebhookServiceOptions> = {}, existing?: { store: Store; clock: TestClock }): Harness {
  const clock = existing?.clock ?? createTestClock()
  const store = existing?.store ?? createMemoryStore()
  const http = fakeFetch(clock)
  const targets = new Map<string, WebhookTarget>([
    ['s1', { url: HOOK_URL, secret: SECRET }],
    ['s2', { url: 'https://other.example.com/hook', secret: OTHER_SECRET }],
    ['s3', { url: 'https://third.example.com/hook', secret: SECRET }],
  ])
  const { logger, entries } = capturingLogger()
  const build = (extra: Partial<WebhookServiceOptions>): WebhookService =>
    new WebhookService({
      store,
      clock,
      fetch: http.fetch,
      logger,
      newId: sequentialIds('msg'),
      random: () => 0.5,
      resolveTarget: async (sessionId) => targets.get(sessionId),
      ...overrides,
      ...extra,
    })
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await clock.flush()
  }
  return { service: build({}), clock, store, http, targets, logs: entries, restart: build, settle }
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE

/** Answers with each responder in turn, then keeps using the last. */
export function sequence(...responders: Responder[]): Responder {
  let i = 0
  return (call) => responders[Math.min(i++, responders.length - 1)]!(call)
}

/** Every record of a collection, sorted by key. */
export async function recordsOf<T>(store: Store, collection: string): Promise<[string, T][]> {
  const all: [string, T][] = []
  for await (const entry of store.collection<T>(collection).entries()) all.push(entry)
  return all.sort(([a], [b]) => a.localeCompare(b))
}
