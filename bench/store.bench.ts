/**
 * Store throughput: `npx tsx bench/store.bench.ts` (from the repo root). Not a test.
 *
 * Per backend (memory, SQLite in a temp folder; Redis and Postgres on 127.0.0.1 when they answer,
 * URIs overridable with BENCH_REDIS_URI / BENCH_POSTGRES_URI), with a Baileys-sized value (a key
 * pair, two 32-byte Buffers):
 * - set / get: one awaited call after another (latency-bound), and 32 in flight;
 * - batch: batches of 100 sets, awaited one after another;
 * - entries: one `entries(prefix)` walk over 10,000 entries.
 * Each measure runs for about a second (bounded by a count too) and prints operations per second.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../packages/core/src/kernel/index.js'
import { openStore } from '../packages/core/src/store/index.js'
import type { Collection, Store } from '../packages/core/src/store/index.js'
import { openPostgresBackend } from '../packages/core/src/store/postgres-backend.js'

const NAMESPACE = `bench_${process.pid}`
const BUDGET_MS = 1_000
const MAX_OPS = 200_000
const CONCURRENCY = 32
const BATCH_SIZE = 100
const SCAN_SIZE = 10_000

const value = () => ({ private: Buffer.alloc(32, 1), public: Buffer.alloc(32, 2) })

/** Runs `op(i)` for about {@link BUDGET_MS}, `lanes` at a time; returns calls per second. */
async function rate(op: (i: number) => Promise<unknown>, lanes = 1, maxOps = MAX_OPS): Promise<number> {
  let next = 0
  const start = performance.now()
  const lane = async (): Promise<void> => {
    while (next < maxOps && performance.now() - start < BUDGET_MS) await op(next++)
  }
  await Promise.all(Array.from({ length: lanes }, lane))
  return next / ((performance.now() - start) / 1_000)
}

async function measure(label: string, store: Store): Promise<void> {
  const c: Collection<unknown> = store.collection('bench')
  await c.clear()
  const rows: [string, number][] = []
  rows.push(['set (sequential)', await rate((i) => c.set(`s:${i}`, value()))])
  rows.push([`set (${CONCURRENCY} in flight)`, await rate((i) => c.set(`p:${i}`, value()), CONCURRENCY)])
  const written = 1_000
  await c.batch({ set: Array.from({ length: written }, (_, i): [string, unknown] => [`g:${i}`, value()]) })
  rows.push(['get (sequential)', await rate((i) => c.get(`g:${i % written}`))])
  rows.push([`get (${CONCURRENCY} in flight)`, await rate((i) => c.get(`g:${i % written}`), CONCURRENCY)])
  const batches = await rate(
    (i) => c.batch({ set: Array.from({ length: BATCH_SIZE }, (_, j): [string, unknown] => [`b:${i}:${j}`, value()]) }),
    1,
    2_000,
  )
  rows.push([`batch of ${BATCH_SIZE} (batches)`, batches], [`batch of ${BATCH_SIZE} (entries)`, batches * BATCH_SIZE])
  for (let i = 0; i < SCAN_SIZE; i += 1_000) {
    await c.batch({ set: Array.from({ length: 1_000 }, (_, j): [string, unknown] => [`e:${i + j}`, value()]) })
  }
  const start = performance.now()
  let seen = 0
  for await (const _ of c.entries('e')) seen++
  const perSecond = seen / ((performance.now() - start) / 1_000)
  if (seen !== SCAN_SIZE) throw new Error(`entries saw ${seen} of ${SCAN_SIZE}`)
  rows.push([`entries(prefix): ${SCAN_SIZE} of ${(await count(c)).toLocaleString('en-US')}`, perSecond])
  await c.clear()

  console.log(`\n${label}`)
  for (const [name, perSecond] of rows) {
    console.log(`  ${name.padEnd(34)} ${Math.round(perSecond).toLocaleString('en-US').padStart(12)} ops/s`)
  }
}

async function count(c: Collection<unknown>): Promise<number> {
  let n = 0
  for await (const _ of c.entries()) n++
  return n
}

function reachable(uri: string): Promise<boolean> {
  const url = new URL(uri)
  return new Promise((resolve) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port) })
    const done = (ok: boolean): void => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

async function withStore(label: string, uri: string, cleanup?: () => Promise<void>): Promise<void> {
  const store = await openStore(uri, { namespace: NAMESPACE })
  try {
    await measure(label, store)
  } finally {
    await store.close()
    await cleanup?.()
  }
}

async function main(): Promise<void> {
  console.log(`store benchmark: Node ${process.version}, budget ${BUDGET_MS} ms per measure`)
  await withStore('memory', 'memory')

  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'))
  const sqlite = `sqlite://${join(dir, 'bench.sqlite')}`
  await withStore('sqlite (WAL, temp file)', sqlite, () => rm(dir, { recursive: true, force: true }))

  const redis = process.env.BENCH_REDIS_URI ?? 'redis://127.0.0.1:6379'
  if (await reachable(redis)) await withStore(`redis (${redis})`, redis)
  else console.log(`\nredis: skipped, ${redis} does not answer`)

  const candidates = process.env.BENCH_POSTGRES_URI
    ? [process.env.BENCH_POSTGRES_URI]
    : ['postgres://root@127.0.0.1:5432/test', 'postgres://postgres@127.0.0.1:5432/test']
  const postgres = candidates[0] as string
  if (!(await reachable(postgres))) {
    console.log(`\npostgres: skipped, ${postgres} does not answer`)
    return
  }
  for (const uri of candidates) {
    try {
      await (await openStore(uri, { namespace: NAMESPACE })).close()
    } catch {
      continue
    }
    await withStore(`postgres (${uri})`, uri, async () => {
      const backend = await openPostgresBackend(uri, NAMESPACE, silentLogger)
      await backend.query(`DROP TABLE IF EXISTS public.${NAMESPACE}`)
      await backend.close()
    })
    return
  }
  console.log('\npostgres: skipped, no candidate URI accepted the connection')
}

await main()
