/**
 * Store URIs (the `SWITCHBOARD_STORE` setting): `memory`, `sqlite://<path>`, `redis://…`,
 * `rediss://…`, `postgres://…`, `postgresql://…`. Parsing never echoes a password: errors name the
 * scheme or show the URI with its credentials masked.
 * @module
 */
import { resolve } from 'node:path'
import type { StoreKind } from './store.js'

/** What a store URI designates. */
export type StoreLocation =
  | { kind: 'memory' }
  /** `file` is absolute (or `:memory:`). */
  | { kind: 'sqlite'; file: string }
  | { kind: 'redis'; url: string }
  | { kind: 'postgres'; url: string }

const EXPECTED = 'expected memory, sqlite://<path>, redis://…, rediss://…, postgres://… or postgresql://…'

const SCHEMES: Record<string, StoreKind> = {
  sqlite: 'sqlite',
  redis: 'redis',
  rediss: 'redis',
  postgres: 'postgres',
  postgresql: 'postgres',
}

/**
 * Parses a store URI. A relative SQLite path is resolved against the working directory. Throws a
 * plain `Error` naming the problem (empty URI, no scheme, unsupported scheme, SQLite URI without a
 * path, malformed server URL).
 */
export function parseStoreUri(uri: string): StoreLocation {
  const text = uri.trim()
  if (text === '') throw new Error(`Store URI is empty: ${EXPECTED}`)
  if (text === 'memory' || text === 'memory://') return { kind: 'memory' }
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text)
  if (match === null) {
    const shown = text.includes('@') ? '' : ` "${text}"`
    throw new Error(`Store URI${shown} does not start with a scheme (<name>://): ${EXPECTED}`)
  }
  const scheme = (match[1] ?? '').toLowerCase()
  const kind = SCHEMES[scheme]
  if (kind === undefined) throw new Error(`Store URI scheme "${scheme}://" is not supported: ${EXPECTED}`)
  const rest = text.slice(match[0].length)
  if (kind === 'sqlite') {
    if (rest === '') throw new Error('Store URI "sqlite://" names no database file: expected sqlite://<path>')
    return { kind, file: rest === ':memory:' ? rest : resolve(rest) }
  }
  let parsed: URL
  try {
    parsed = new URL(text)
  } catch {
    throw new Error(`Store URI "${redactUri(text)}" is not a valid ${scheme}:// URL`)
  }
  // Postgres may name no host: a Unix socket comes as `?host=/run/postgresql`.
  if (kind === 'redis' && parsed.hostname === '') {
    throw new Error(`Store URI "${redactUri(text)}" names no host: expected ${scheme}://<host>[:port]/…`)
  }
  return { kind, url: text }
}

/** The URI with any password replaced by `***`, fit for logs and error messages. */
export function redactUri(uri: string): string {
  return uri.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/, '$1:***@')
}
