/**
 * Gateway throughput and memory on the sandbox network: `npx tsx bench/gateway.bench.ts`
 * (from the repo root; BENCH_SESSIONS, BENCH_MESSAGES and BENCH_STORE override the sizes and the
 * store URI). Not a test: it prints figures.
 *
 * - link: N sessions created and linked by simulated phones;
 * - send: M texts through `messaging.sendText` (validation, limits, registration cache, driver,
 *   record, chat update), spread over the sessions, 32 in flight;
 * - receive: M inbound messages from accounts, until every `message` event has fired;
 * - memory: heap per linked session after a forced GC (run with `node --expose-gc` for it:
 *   `node --expose-gc --import tsx bench/gateway.bench.ts`).
 */
import { createGateway, openStore, systemClock, type GatewayEvent } from '../packages/core/src/index.js'
import { createSandbox } from '../packages/sandbox/src/index.js'

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 50)
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5_000)
const STORE = process.env.BENCH_STORE ?? 'memory'
const LANES = 32

const gc = (globalThis as { gc?: () => void }).gc
const heapMiB = () => {
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

async function main(): Promise<void> {
  const store = await openStore(STORE)
  const sandbox = createSandbox({ store, clock: systemClock, qrDelayMs: 0, connectDelayMs: 0 })
  await sandbox.load()
  const gateway = await createGateway({
    store,
    network: sandbox.driver(),
    adminKey: 'wamk_bench_admin_key_0123456789abcdefghijkl',
    // The bench measures the machinery, not the per-session pacing.
    limits: { general: 1e9, messages: 1e9, sessions: 1e9 },
  })
  await gateway.start()
  const base = heapMiB()

  const peer = '15559990000'
  await sandbox.accounts.create({ phoneNumber: peer, name: 'Peer' })
  const sessions: { id: string; phone: string }[] = []
  let t = performance.now()
  for (let i = 0; i < SESSIONS; i++) {
    const phone = `1555${2_000_000 + i}`
    await sandbox.accounts.create({ phoneNumber: phone })
    const { record } = await gateway.sessions.create({ name: `s${i}` }, gateway.masterPrincipal())
    await gateway.sessions.waitForState(record.id, 'qr_ready', 5_000)
    await sandbox.scan(phone, await gateway.sessions.qr(record.id, 'raw'))
    await gateway.sessions.waitForState(record.id, 'ready', 5_000)
    sessions.push({ id: record.id, phone })
  }
  const linkMs = performance.now() - t
  const linkedHeap = heapMiB()

  let next = 0
  t = performance.now()
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < MESSAGES) {
        const n = next++
        const s = sessions[n % sessions.length]!
        await gateway.messaging.sendText(s.id, { to: peer, text: `message ${n}` })
      }
    }),
  )
  const sendMs = performance.now() - t

  let received = 0
  const allIn = new Promise<void>((resolve) =>
    gateway.onEvent((e: GatewayEvent) => {
      if (e.event === 'message' && ++received === MESSAGES) resolve()
    }),
  )
  t = performance.now()
  for (let n = 0; n < MESSAGES; n++) await sandbox.sendAs(peer, { to: sessions[n % sessions.length]!.phone, text: `in ${n}` })
  await allIn
  const receiveMs = performance.now() - t

  const rate = (count: number, ms: number) => Math.round((count / ms) * 1000)
  console.log(`store ${STORE}, ${SESSIONS} sessions, ${MESSAGES} messages each way (Node ${process.version})`)
  console.log(`link      ${rate(SESSIONS, linkMs)} sessions/s (${Math.round(linkMs / SESSIONS)} ms each)`)
  console.log(`send      ${rate(MESSAGES, sendMs)} messages/s`)
  console.log(`receive   ${rate(MESSAGES, receiveMs)} messages/s (to the message event)`)
  if (gc) console.log(`heap      ${((linkedHeap - base) / SESSIONS * 1024).toFixed(0)} KiB per linked session (before traffic)`)
  else console.log('heap      run with node --expose-gc --import tsx for the per-session figure')
  await gateway.close()
  await sandbox.close()
  await store.close()
}

await main()
