/**
 * The `redis://` / `rediss://` backend: one client (made with the `createClient` that
 * `@keyv/redis` re-exports and handed to a `KeyvRedis` adapter, which owns it), one hash per
 * collection.
 *
 * Layout: the hash `<namespace>:<collection>` holds one field per id. So a collection's entries are
 * found with `HSCAN <hash> MATCH <escaped prefix>:*`, which walks that collection only (a keyspace
 * `SCAN` would walk every key of the database), and `clear()` without a prefix is one `DEL`. A
 * batch is `MULTI` + `HDEL` + `HSET` + `EXEC`: no other client's command runs in between, and a
 * command refused while queued (out of memory, say) discards the whole transaction; Redis has no
 * rollback for a command failing inside `EXEC`, but these two, on a hash we own, cannot. `clear(prefix)`
 * deletes page by page, so it is not atomic.
 *
 * Connecting: the first connection fails fast (the server turns it into a startup message); once
 * connected, a lost connection is retried with a capped backoff while commands wait in the queue.
 * @module
 */
import KeyvRedis, { createClient } from '@keyv/redis'
import type { Logger } from '../kernel/index.js'
import { SCAN_PAGE_SIZE } from './backend.js'
import type { Backend } from './backend.js'

/** The longest pause between two reconnection attempts. */
export const REDIS_MAX_RECONNECT_DELAY_MS = 2_000

type RedisClient = ReturnType<typeof makeClient>

/** A Redis backend; `client` is exposed for tests (cleanup). */
export interface RedisBackend extends Backend {
  readonly client: RedisClient
}

/** Connects to `uri`; keys live under `<namespace>:`. */
export async function openRedisBackend(uri: string, namespace: string, logger: Logger): Promise<RedisBackend> {
  let connected = false
  const client = makeClient(uri, () => connected)
  const adapter = new KeyvRedis(client, { throwOnConnectError: true, throwOnErrors: true })
  // Before the first connection, errors are the rejection of connect() below: openStore reports them.
  adapter.on('error', (err: unknown) => {
    if (connected) logger.error({ err }, 'redis store error')
    else logger.debug({ err }, 'redis connect failed')
  })
  await client.connect()
  connected = true

  const hash = (collection: string): string => `${namespace}:${collection}`

  async function* scanFields(collection: string, idPrefix: string): AsyncGenerator<[string, string]> {
    // HSCAN may return a field twice (while the hash is rehashed).
    const seen = new Set<string>()
    let cursor = '0'
    do {
      const match = `${escapeGlob(idPrefix)}*`
      const page = await client.hScan(hash(collection), cursor, { MATCH: match, COUNT: SCAN_PAGE_SIZE })
      cursor = page.cursor
      for (const { field, value } of page.entries) {
        if (seen.has(field)) continue
        seen.add(field)
        yield [field, value]
      }
    } while (cursor !== '0')
  }

  return {
    kind: 'redis',
    client,
    get: async (collection, id) => (await client.hGet(hash(collection), id)) ?? undefined,
    async getMany(collection, ids) {
      if (ids.length === 0) return []
      const values = await client.hmGet(hash(collection), [...ids])
      return values.map((value) => value ?? undefined)
    },
    async set(collection, id, text) {
      await client.hSet(hash(collection), id, text)
    },
    delete: async (collection, id) => (await client.hDel(hash(collection), id)) > 0,
    async batch(collection, sets, deletes) {
      const multi = client.multi()
      if (deletes.length > 0) multi.hDel(hash(collection), [...deletes])
      if (sets.length > 0) multi.hSet(hash(collection), sets.flat())
      await multi.exec()
    },
    scan: scanFields,
    async clear(collection, idPrefix) {
      if (idPrefix === '') {
        await client.del(hash(collection))
        return
      }
      let ids: string[] = []
      for await (const [id] of scanFields(collection, idPrefix)) {
        ids.push(id)
        if (ids.length >= SCAN_PAGE_SIZE) {
          await client.hDel(hash(collection), ids)
          ids = []
        }
      }
      if (ids.length > 0) await client.hDel(hash(collection), ids)
    },
    async close() {
      connected = false
      await adapter.disconnect()
    },
  }
}

function makeClient(uri: string, isConnected: () => boolean) {
  return createClient({
    url: uri,
    socket: {
      reconnectStrategy: (retries, cause) =>
        isConnected() ? Math.min(2 ** retries * 100, REDIS_MAX_RECONNECT_DELAY_MS) : cause,
    },
  })
}

/** Escapes the glob characters of `MATCH` patterns. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&')
}
