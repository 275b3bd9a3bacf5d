import type { Logger } from '@switchboard/core'
import type { Middleware } from 'koa'

/**
 * One log line per request: method, path, status, ms, requestId. The path is logged without its
 * query string, which may carry `api_key`; headers are never logged.
 */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      logger.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          requestId: ctx.state.requestId as string | undefined,
        },
        'request',
      )
    }
  }
}
