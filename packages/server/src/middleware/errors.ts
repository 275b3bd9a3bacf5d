import { GatewayError, isGatewayError, type Logger } from '@switchboard/core'
import type { Context, Middleware } from 'koa'

/** The one error shape of the API (decisions.md). */
export interface ErrorBody {
  success: false
  error: string
  retryAfter?: number
}

/**
 * Turns every failure into `{ success: false, error }`: a GatewayError answers its own status and
 * text (with `retryAfter` and `Retry-After` where set); a request no route took is 404 `Not found`;
 * anything else is 500 `Internal server error`, with the details in the log only.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body === undefined) throw new GatewayError('ROUTE_NOT_FOUND')
    } catch (err) {
      if (isGatewayError(err)) return answer(ctx, err)
      const requestId = ctx.state.requestId as string | undefined
      logger.error({ err, requestId, method: ctx.method, path: ctx.path }, 'unexpected error')
      answer(ctx, new GatewayError('INTERNAL'))
    }
  }
}

function answer(ctx: Context, err: GatewayError): void {
  const body: ErrorBody = { success: false, error: err.message }
  if (err.retryAfter !== undefined) {
    body.retryAfter = err.retryAfter
    ctx.set('Retry-After', String(err.retryAfter))
  }
  ctx.status = err.status
  ctx.body = body
}
