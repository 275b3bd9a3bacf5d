import type { Context } from 'koa'

/** The query parameter that may carry the key (spec: named in the missing-key error). */
export const API_KEY_QUERY = 'api_key'

/**
 * The raw key of a request, from `X-API-Key` (preferred), `Authorization: Bearer …`, or the
 * `api_key` query parameter, in that order; undefined when none carries one.
 */
export function readApiKey(ctx: Context): string | undefined {
  const header = ctx.get('X-API-Key').trim()
  if (header !== '') return header
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))
  if (bearer?.[1] !== undefined) return bearer[1]
  const query = ctx.query[API_KEY_QUERY]
  const value = Array.isArray(query) ? query[0] : query
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined
}
