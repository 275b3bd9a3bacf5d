import { GatewayError } from '@switchboard/core'
import bodyParser from 'koa-bodyparser'
import type { Middleware } from 'koa'

/** Media may come inline as a base64 data URL: 16 MB of media is about 21.4 MB of base64. */
export const JSON_BODY_LIMIT = '25mb'

/**
 * Parses JSON bodies into `ctx.request.body` (an empty object when there is none). Malformed JSON
 * is 400 `Invalid JSON body`; a body over the limit is 400 `Request body too large` (the spec lists
 * no 413).
 */
export function jsonBody(): Middleware {
  return bodyParser({
    enableTypes: ['json'],
    jsonLimit: JSON_BODY_LIMIT,
    strict: true,
    onerror(err: Error & { status?: number }) {
      if (err.status === 413) throw new GatewayError('BODY_TOO_LARGE', {}, { cause: err })
      if (err.status !== undefined && err.status >= 400 && err.status < 500) {
        throw new GatewayError('INVALID_JSON_BODY', {}, { cause: err })
      }
      throw err
    },
  })
}
