/**
 * The storage room: {@link openStore} (memory, SQLite, Redis, Postgres) and
 * {@link createAuthStore}. The only folder of the project that imports `keyv` / `@keyv/*`.
 * @module
 */
export { openStore, DEFAULT_STORE_NAMESPACE } from './open-store.js'
export type { OpenStoreOptions } from './open-store.js'
export { createAuthStore, AUTH_CREDS_COLLECTION, AUTH_KEYS_COLLECTION } from './auth-store.js'
export { parseStoreUri, redactUri } from './store-uri.js'
export type { StoreLocation } from './store-uri.js'
export type { Store, Collection, BatchWrite, StoreKind } from './store.js'
export type { AuthStore } from '../network/driver.js'
