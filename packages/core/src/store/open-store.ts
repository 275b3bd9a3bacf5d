/**
 * `openStore(uri)`: the gateway's storage, on Keyv's adapters.
 *
 * Design. One store is one connection (SQLite), one small pool (Postgres) or one client (Redis),
 * whatever number of collections it serves: several sqlite connections to one file end in
 * "database is locked", several pg pools exhaust `max_connections`. The `Keyv` class itself is not
 * used: it sets one `namespace` on its adapter (so instances cannot share one), swallows backend
 * errors unless told otherwise, wraps values in an expiry envelope read against `Date.now()`, and
 * offers neither prefix iteration nor atomic batches. So each backend takes from its `@keyv/*`
 * adapter the connection and (SQL) the table the adapter creates, and runs its own statements or
 * commands through the adapter's `query()` / client, with its own key layout:
 *
 * - memory: a `Map` per collection; prefix = a filter of that map; batch = synchronous, so atomic.
 * - sqlite: row `<collection>:<id>` of table `<namespace>`; prefix = a range `[p, p')` on the
 *   primary key, paged; batch = one transaction, the connection's statements serialised.
 * - postgres: row `<collection>:<id>` of `public.<namespace>`; prefix = a range under
 *   `COLLATE "C"` (indexed), paged; batch = one statement.
 * - redis: field `<id>` of hash `<namespace>:<collection>`; prefix = `HSCAN MATCH <prefix>:*` on
 *   that hash; batch = `MULTI`/`EXEC`.
 *
 * Values are the codec's JSON text (`codec.ts`: Buffers survive, no TTL anywhere), not Keyv's
 * envelope: the tables are Keyv-shaped but meant for this module only.
 * @module
 */
import { silentLogger } from '../kernel/index.js'
import type { Logger } from '../kernel/index.js'
import type { Backend } from './backend.js'
import { storeOverBackend } from './backend-store.js'
import { openMemoryBackend } from './memory-backend.js'
import { openPostgresBackend } from './postgres-backend.js'
import { openRedisBackend } from './redis-backend.js'
import { openSqliteBackend } from './sqlite-backend.js'
import type { Store } from './store.js'
import { parseStoreUri, redactUri } from './store-uri.js'
import type { StoreLocation } from './store-uri.js'

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  logger?: Logger
  /**
   * Separates this store's data from anything else in the same database: the SQL table name
   * (SQLite, Postgres) or the Redis key prefix. Lowercase letters, digits and `_`, starting with a
   * letter, at most 48 characters. Default `switchboard`.
   */
  namespace?: string
}

/** The default {@link OpenStoreOptions.namespace}. */
export const DEFAULT_STORE_NAMESPACE = 'switchboard'

/**
 * Opens the store named by `uri` (see `parseStoreUri`): connects, creates the table or folder it
 * needs, and resolves once it is usable. Throws a plain `Error` for an invalid URI or namespace, and
 * the backend's error (prefixed with the redacted URI) when it cannot be reached.
 */
export async function openStore(uri: string, options: OpenStoreOptions = {}): Promise<Store> {
  const logger = options.logger ?? silentLogger
  const namespace = options.namespace ?? DEFAULT_STORE_NAMESPACE
  if (!/^[a-z][a-z0-9_]{0,47}$/.test(namespace)) {
    const rule = 'use lowercase letters, digits and "_", starting with a letter (48 at most)'
    throw new Error(`Invalid store namespace "${namespace}": ${rule}`)
  }
  const location = parseStoreUri(uri)
  let backend: Backend
  try {
    backend = await openBackend(location, namespace, logger)
  } catch (err) {
    throw new Error(`Cannot open store ${redactUri(uri.trim())}: ${(err as Error).message}`, { cause: err })
  }
  logger.info({ store: backend.kind, uri: redactUri(uri.trim()), namespace }, 'store opened')
  return storeOverBackend(backend, logger)
}

function openBackend(location: StoreLocation, namespace: string, logger: Logger): Promise<Backend> {
  switch (location.kind) {
    case 'memory':
      return Promise.resolve(openMemoryBackend())
    case 'sqlite':
      return openSqliteBackend(location.file, namespace, logger)
    case 'redis':
      return openRedisBackend(location.url, namespace, logger)
    case 'postgres':
      return openPostgresBackend(location.url, namespace, logger)
  }
}
