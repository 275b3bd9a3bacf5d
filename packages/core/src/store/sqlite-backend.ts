/**
 * The `sqlite://<path>` backend, on one `@keyv/sqlite` adapter, which means one sqlite3
 * connection per store (several connections to one file end in `SQLITE_BUSY`, "database is
 * locked"). The adapter creates the table (`key VARCHAR PRIMARY KEY, value TEXT`); every statement,
 * its own included, goes through the adapter's `query()`, wrapped in a {@link SerialQueue} so a
 * batch's `BEGIN IMMEDIATE … COMMIT` never has a foreign statement in the middle.
 *
 * Keys are `<collection>:<id>`; a prefix is matched as the range `[p, p')` on the primary key (see
 * {@link prefixRange}): exact, case-sensitive and index-backed, where `LIKE` would be
 * case-insensitive and would read `_` and `%` in ids as wildcards.
 * @module
 */
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { KeyvSqlite } from '@keyv/sqlite'
import type { Logger } from '../kernel/index.js'
import { MAX_KEY_LENGTH, prefixRange, SCAN_PAGE_SIZE } from './backend.js'
import type { Backend } from './backend.js'
import { SerialQueue } from './serial-queue.js'

/** How long a statement waits for a lock held by another process before `SQLITE_BUSY`. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000
type Row = { key: string; value: string }

/** A SQLite backend; `query` runs raw SQL in the queue (tests use it to install faults). */
export interface SqliteBackend extends Backend {
  query(sql: string, ...params: unknown[]): Promise<unknown[]>
}

/**
 * Opens (creating it and its folder if needed) the database file at `file`, an absolute path or
 * `:memory:`, in WAL mode.
 */
export async function openSqliteBackend(file: string, table: string, logger: Logger): Promise<SqliteBackend> {
  if (file !== ':memory:') await mkdir(dirname(file), { recursive: true })
  const adapter = new KeyvSqlite({
    uri: `sqlite://${file}`,
    table,
    keySize: MAX_KEY_LENGTH,
    busyTimeout: SQLITE_BUSY_TIMEOUT_MS,
  })
  // A failed open is both this event and the rejection of every query: openStore reports the latter.
  let opened = false
  adapter.on('error', (err: unknown) => {
    if (opened) logger.error({ err }, 'sqlite store error')
    else logger.debug({ err }, 'sqlite open failed')
  })
  const queue = new SerialQueue()
  const raw = (sql: string, ...params: unknown[]): Promise<Row[]> => adapter.query(sql, ...params) as Promise<Row[]>
  const query = (sql: string, ...params: unknown[]): Promise<Row[]> => queue.run(() => raw(sql, ...params))

  try {
    await query('PRAGMA journal_mode = WAL')
    opened = true
  } catch (err) {
    await adapter.disconnect().catch(() => undefined)
    throw err
  }

  const key = (collection: string, id: string): string => `${collection}:${id}`
  const upsert = `INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`
  const upsertMany = `INSERT INTO ${table} (key, value)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`
  const deleteMany = `DELETE FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`

  return {
    kind: 'sqlite',
    query,
    async get(collection, id) {
      const rows = await query(`SELECT value FROM ${table} WHERE key = ?`, key(collection, id))
      return rows[0]?.value
    },
    async getMany(collection, ids) {
      if (ids.length === 0) return []
      const keys = ids.map((id) => key(collection, id))
      const rows = await query(
        `SELECT key, value FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`,
        JSON.stringify(keys),
      )
      const found = new Map(rows.map((row) => [row.key, row.value]))
      return keys.map((k) => found.get(k))
    },
    async set(collection, id, text) {
      await query(upsert, key(collection, id), text)
    },
    async delete(collection, id) {
      const rows = await query(`DELETE FROM ${table} WHERE key = ? RETURNING key`, key(collection, id))
      return rows.length > 0
    },
    batch: (collection, sets, deletes) =>
      queue.run(async () => {
        await raw('BEGIN IMMEDIATE')
        try {
          if (deletes.length > 0) {
            await raw(deleteMany, JSON.stringify(deletes.map((id) => key(collection, id))))
          }
          if (sets.length > 0) {
            await raw(upsertMany, JSON.stringify(sets.map(([id, text]) => [key(collection, id), text])))
          }
          await raw('COMMIT')
        } catch (err) {
          await raw('ROLLBACK').catch((rollbackErr: unknown) => {
            logger.error({ err: rollbackErr }, 'sqlite store rollback failed')
          })
          throw err
        }
      }),
    async *scan(collection, idPrefix) {
      const { low, high } = prefixRange(key(collection, idPrefix))
      const start = collection.length + 1
      let after = ''
      for (;;) {
        const rows = await query(
          `SELECT key, value FROM ${table} WHERE key >= ? AND key < ? AND key > ? ORDER BY key LIMIT ?`,
          low,
          high,
          after,
          SCAN_PAGE_SIZE,
        )
        for (const row of rows) yield [row.key.slice(start), row.value]
        const last = rows.at(-1)
        if (last === undefined || rows.length < SCAN_PAGE_SIZE) return
        after = last.key
      }
    },
    async clear(collection, idPrefix) {
      const { low, high } = prefixRange(key(collection, idPrefix))
      await query(`DELETE FROM ${table} WHERE key >= ? AND key < ?`, low, high)
    },
    close: () => queue.run(() => adapter.disconnect()),
  }
}
