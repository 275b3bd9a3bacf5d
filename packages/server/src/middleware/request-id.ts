import { randomUUID } from 'node:crypto'
import type { Middleware } from 'koa'

/** A client-given id is kept only when it is short and plain (it ends up in logs and headers). */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Reads `X-Request-Id` (or makes one), keeps it in `ctx.state.requestId` and echoes it on the
 * response, errors included.
 */
export function requestId(newId: () => string = randomUUID): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id')
    const id = ACCEPTED.test(given) ? given : newId()
    ctx.state.requestId = id
    ctx.set('X-Request-Id', id)
    await next()
  }
}
