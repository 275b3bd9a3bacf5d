/**
 * The driver's {@link AuthStore} over a {@link Store}, shaped for Baileys' `SignalKeyStore`.
 *
 * Layout: creds in collection `auth-creds` under id `<sessionId>`; keys in `auth-keys` under
 * `<sessionId>:<type>:<id>` (a key id may itself hold `:`, `_`, `@`, `.`).
 *
 * What comes back (the codec's rules, identical to Baileys' `BufferJSON` round-trip):
 * - `Buffer` / `Uint8Array` at any depth → `Buffer`; numbers, strings, booleans, `null`, arrays and
 *   plain objects as written (`initAuthCreds()` round-trips deep-equal).
 * - A protobufjs message (e.g. an `app-state-sync-key`, `proto.Message.AppStateSyncKeyData`) →
 *   the plain object of its `toJSON()`: bytes fields as **base64 strings**, 64-bit fields (`Long`) as
 *   **decimal strings**, nested messages as plain objects. Rebuild it with
 *   `proto.Message.AppStateSyncKeyData.fromObject(value)`, as Baileys' own file store does; that
 *   restores the bytes and the `Long`.
 * - A bare `Long` (outside a message) → `{ low, high, unsigned }`, which `Long.fromValue()` and
 *   `fromObject()` accept.
 * @module
 */
import type { AuthStore } from '../network/driver.js'
import type { Store } from './store.js'

/** The collection holding each session's creds, by session id. */
export const AUTH_CREDS_COLLECTION = 'auth-creds'
/** The collection holding each session's signal keys, as `<sessionId>:<type>:<id>`. */
export const AUTH_KEYS_COLLECTION = 'auth-keys'

/**
 * The auth store of one session. `sessionId` must be non-empty and free of `:`, so that one
 * session's keys are never under another's prefix.
 *
 * `setKeys` writes every type and id in one batch (atomic on SQLite, Postgres and Redis).
 * `clear` removes the creds first, then the keys: the two collections cannot share a transaction,
 * and creds gone means "not linked", so an interruption between the two leaves an unlinked session
 * with stale keys, which the next `clear()` removes.
 */
export function createAuthStore(store: Store, sessionId: string): AuthStore {
  if (sessionId === '' || sessionId.includes(':')) {
    throw new Error(`Invalid session id "${sessionId}" for an auth store: it must be non-empty and free of ":"`)
  }
  const creds = store.collection<unknown>(AUTH_CREDS_COLLECTION)
  const keys = store.collection<unknown>(AUTH_KEYS_COLLECTION)
  const keyId = (type: string, id: string): string => `${sessionId}:${type}:${id}`

  return {
    readCreds: () => creds.get(sessionId),
    writeCreds: (value) => creds.set(sessionId, value),
    async getKeys(type, ids) {
      const values = await keys.getMany(ids.map((id) => keyId(type, id)))
      // fromEntries defines own properties: an id such as `__proto__` stays a plain key.
      return Object.fromEntries(ids.flatMap((id, i) => (values[i] === undefined ? [] : [[id, values[i]]])))
    },
    async setKeys(data) {
      const set: [string, unknown][] = []
      const remove: string[] = []
      for (const [type, entries] of Object.entries(data)) {
        // Baileys may hand a type with no entries as `undefined`.
        for (const [id, value] of Object.entries(entries ?? {})) {
          if (value === null || value === undefined) remove.push(keyId(type, id))
          else set.push([keyId(type, id), value])
        }
      }
      await keys.batch({ set, delete: remove })
    },
    async clear() {
      await creds.delete(sessionId)
      await keys.clear(sessionId)
    },
  }
}
