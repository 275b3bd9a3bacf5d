import { expect } from 'chai'
import type { Api, Json } from './api.js'
import type { E2e } from './harness.js'
import { waitFor } from './wait.js'

/** A session as the creation answered it, with a client holding its session key. */
export interface TestSession {
  id: string
  name: string
  apiKey: string
  webhookSecret: string
  /** Client with the session key. */
  api: Api
}

let sessionCount = 0

/** `POST /sandbox/accounts`: a simulated phone. */
export async function createAccount(e2e: E2e, phoneNumber: string, name?: string): Promise<Json> {
  const reply = await e2e.admin.post('/sandbox/accounts', { phoneNumber, ...(name === undefined ? {} : { name }) })
  expect(reply.status, reply.text).to.equal(201)
  return reply.body.account as Json
}

/** `POST /sessions/create` with `by` (the admin client by default); expects 201. */
export async function createSession(
  e2e: E2e,
  input: { name?: string; webhookUrl?: string; by?: Api } = {},
): Promise<TestSession> {
  const name = input.name ?? `session-${++sessionCount}`
  const body = { name, ...(input.webhookUrl === undefined ? {} : { webhookUrl: input.webhookUrl }) }
  const reply = await (input.by ?? e2e.admin).post('/sessions/create', body)
  expect(reply.status, reply.text).to.equal(201)
  const { session, apiKey, webhookSecret } = reply.body
  return { id: session.id, name, apiKey, webhookSecret, api: e2e.as(apiKey) }
}

/** Session state as `GET /sessions/{id}/status` reports it (with the admin key). */
export async function stateOf(e2e: E2e, id: string): Promise<string> {
  const reply = await e2e.admin.get(`/sessions/${id}/status`)
  return String(reply.body.session?.state ?? `HTTP ${reply.status}`)
}

/** Ticks the test clock until the session reaches `state`. */
export async function waitForState(e2e: E2e, id: string, state: string): Promise<void> {
  let last = ''
  await waitFor(
    async () => {
      last = await stateOf(e2e, id)
      return last === state
    },
    { clock: e2e.clock, tickMs: 100, what: `state ${state} of ${id}` },
  ).catch((err: Error) => {
    throw new Error(`${err.message} (last state: ${last})`)
  })
}

/**
 * Waits until no webhook attempt is under way. Call it before ticking the clock by 5 s or more: a
 * jump over an attempt in flight fires its 5 s timeout, and the event is delivered a second time.
 */
export async function settleWebhooks(e2e: E2e): Promise<void> {
  await waitFor(async () => (await e2e.server.gateway.stats()).webhooks.inFlight === 0, { what: 'webhook attempts to end' })
}

/** Waits for `qr_ready` and answers the raw QR payload (ticking past the 5 s polling limit first). */
export async function readQr(e2e: E2e, session: TestSession): Promise<string> {
  await waitForState(e2e, session.id, 'qr_ready')
  await settleWebhooks(e2e)
  await e2e.clock.tick(5000)
  const reply = await session.api.get(`/sessions/${session.id}/qr`)
  expect(reply.status, reply.text).to.equal(200)
  return reply.body.qr as string
}

/** The phone `phone` scans the session's QR; resolves once the session is `ready`. */
export async function linkByQr(e2e: E2e, session: TestSession, phone: string): Promise<void> {
  const qr = await readQr(e2e, session)
  const scan = await e2e.admin.post(`/sandbox/accounts/${phone}/scan`, { qr })
  expect(scan.status, scan.text).to.equal(200)
  expect(scan.body).to.deep.equal({ success: true, sessionId: session.id })
  await waitForState(e2e, session.id, 'ready')
}

/** A new account and a session linked to it. */
export async function linkedSession(
  e2e: E2e,
  phone: string,
  input: { webhookUrl?: string; by?: Api; name?: string } = {},
): Promise<TestSession> {
  await createAccount(e2e, phone)
  const session = await createSession(e2e, input)
  await linkByQr(e2e, session, phone)
  return session
}
