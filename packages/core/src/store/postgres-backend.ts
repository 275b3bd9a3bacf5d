/**
 * The `postgres://` / `postgresql://` backend, on `@keyv/postgres` with a pool of our own.
 *
 * Why not the adapter's pool: `@keyv/postgres` keeps ONE module-global `pg.Pool` per process
 * (shared by every adapter on the same URI and ended by whichever adapter disconnects first, the
 * other one's included), and attaches no `'error'` listener to it, so an idle client's error (a
 * Postgres restart) would crash the process. So each store makes a small `pg.Pool` from the very
 * `pg` the adapter depends on (resolved at the adapter's location: no dependency of our own), gives
 * it to the adapter through `connect()`, listens to its errors and ends it on close. The adapter
 * still creates the table (`key VARCHAR(1024) PRIMARY KEY, value TEXT`), and every statement goes
 * through its `query()`.
 *
 * Keys are `<collection>:<id>`. A prefix is matched as the range `[p, p')` under `COLLATE "C"`
 * (code-point order; see {@link prefixRange}), served by an extra index on `key COLLATE "C"`: exact,
 * with no `LIKE` wildcard to escape. A batch is one statement (a data-modifying CTE deleting, then
 * an upsert), hence one transaction.
 * @module
 */
import { createRequire } from 'node:module'
import { KeyvPostgres } from '@keyv/postgres'
import type { Logger } from '../kernel/index.js'
import { MAX_KEY_LENGTH, prefixRange, SCAN_PAGE_SIZE } from './backend.js'
import type { Backend } from './backend.js'

/** Connections per store. */
export const POSTGRES_POOL_SIZE = 4
/** How long opening a connection may take. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000

type Row = { key: string; value: string }
type Query = (sql: string, values?: unknown[]) => Promise<Row[]>

/** The part of `pg.Pool` used here (no `@types/pg` is installed). */
interface PgPool {
  query(sql: string, values?: unknown[]): Promise<{ rows: Row[] }>
  on(event: 'error', listener: (err: Error) => void): unknown
  end(): Promise<void>
}
type PgPoolConstructor = new (config: {
  connectionString: string
  max: number
  connectionTimeoutMillis: number
}) => PgPool

/** A Postgres backend; `query` runs raw SQL (tests use it to install faults and drop tables). */
export interface PostgresBackend extends Backend {
  query: Query
}

/** Hands the adapter the pool it finds in its options instead of its module-global one. */
class PooledKeyvPostgres extends KeyvPostgres {
  override async connect(): Promise<Query> {
    const pool = poolOf(this)
    return async (sql, values) => (await pool.query(sql, values)).rows
  }

  override async disconnect(): Promise<void> {
    await poolOf(this).end()
  }
}

/**
 * The `pg` that `@keyv/postgres` itself requires. `import.meta.url` rather than
 * `import.meta.resolve`: the latter is missing when a test runner loads this file through require().
 */
function adaptersPg(): { Pool: PgPoolConstructor } {
  const adapterEntry = createRequire(import.meta.url).resolve('@keyv/postgres')
  return createRequire(adapterEntry)('pg') as { Pool: PgPoolConstructor }
}

function poolOf(adapter: KeyvPostgres): PgPool {
  return (adapter.opts as { pool: PgPool }).pool
}

/** Opens a pool on `uri`, makes sure the table and its index exist. */
export async function openPostgresBackend(uri: string, table: string, logger: Logger): Promise<PostgresBackend> {
  const { Pool } = adaptersPg()
  const pool = new Pool({
    connectionString: uri,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
  })
  pool.on('error', (err) => logger.error({ err }, 'postgres store connection error'))
  const options = { table, keySize: MAX_KEY_LENGTH, pool }
  const adapter = new PooledKeyvPostgres(options as ConstructorParameters<typeof KeyvPostgres>[0])
  // A failed CREATE TABLE is both this event and the failure of the first query below: openStore reports the latter.
  let opened = false
  adapter.on('error', (err: unknown) => {
    if (opened) logger.error({ err }, 'postgres store error')
    else logger.debug({ err }, 'postgres open failed')
  })
  const query: Query = (sql, values) => adapter.query(sql, values) as Promise<Row[]>
  const t = `public.${table}`

  try {
    await query(`CREATE INDEX IF NOT EXISTS ${table}_key_c ON ${t} (key COLLATE "C")`).catch((err: unknown) => {
      // Another process created it at the same moment.
      if (!['23505', '42P07'].includes((err as { code?: string }).code ?? '')) throw err
    })
    opened = true
  } catch (err) {
    await pool.end().catch(() => undefined)
    throw err
  }

  const key = (collection: string, id: string): string => `${collection}:${id}`
  const inRange = `key COLLATE "C" >= $1 AND key COLLATE "C" < $2`

  return {
    kind: 'postgres',
    query,
    async get(collection, id) {
      const rows = await query(`SELECT value FROM ${t} WHERE key = $1`, [key(collection, id)])
      return rows[0]?.value
    },
    async getMany(collection, ids) {
      if (ids.length === 0) return []
      const keys = ids.map((id) => key(collection, id))
      const rows = await query(`SELECT key, value FROM ${t} WHERE key = ANY($1::text[])`, [keys])
      const found = new Map(rows.map((row) => [row.key, row.value]))
      return keys.map((k) => found.get(k))
    },
    async set(collection, id, text) {
      await query(
        `INSERT INTO ${t} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [key(collection, id), text],
      )
    },
    async delete(collection, id) {
      const rows = await query(`DELETE FROM ${t} WHERE key = $1 RETURNING key`, [key(collection, id)])
      return rows.length > 0
    },
    async batch(collection, sets, deletes) {
      await query(
        `WITH removed AS (DELETE FROM ${t} WHERE key = ANY($1::text[]))
         INSERT INTO ${t} (key, value) SELECT * FROM UNNEST($2::text[], $3::text[])
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [
          deletes.map((id) => key(collection, id)),
          sets.map(([id]) => key(collection, id)),
          sets.map(([, text]) => text),
        ],
      )
    },
    async *scan(collection, idPrefix) {
      const { low, high } = prefixRange(key(collection, idPrefix))
      const start = collection.length + 1
      let after = ''
      for (;;) {
        const rows = await query(
          `SELECT key, value FROM ${t} WHERE ${inRange} AND key COLLATE "C" > $3 ORDER BY key COLLATE "C" LIMIT $4`,
          [low, high, after, SCAN_PAGE_SIZE],
        )
        for (const row of rows) yield [row.key.slice(start), row.value]
        const last = rows.at(-1)
        if (last === undefined || rows.length < SCAN_PAGE_SIZE) return
        after = last.key
      }
    },
    async clear(collection, idPrefix) {
      const { low, high } = prefixRange(key(collection, idPrefix))
      await query(`DELETE FROM ${t} WHERE ${inRange}`, [low, high])
    },
    close: () => adapter.disconnect(),
  }
}
