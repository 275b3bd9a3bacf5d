/**
 * The Koa application: middleware, the mounted operation tables, /health, /openapi.json and
 * /api-docs. It never listens (see http-server.ts) and holds no state beyond what it is given.
 * @module
 */
import { createRequire } from 'node:module'
import { Router } from '@koa/router'
import { systemClock, type Clock, type Logger } from '@switchboard/core'
import Koa from 'koa'
import { mountApiDocs } from './api-docs.js'
import type { HttpGateway } from './gateway-port.js'
import { cpuSampler, healthReport } from './health.js'
import { accessLog } from './middleware/access-log.js'
import { errorHandler } from './middleware/errors.js'
import { requestId } from './middleware/request-id.js'
import { mount } from './mount.js'
import { buildOpenApi, type DocumentedSurface } from './openapi.js'
import type { Surface } from './route-spec.js'
import { mountSandboxRoutes } from './sandbox-routes.js'

export interface AppOptions {
  gateway: HttpGateway
  /** Core's operations over the gateway: `{ target: gateway, operations: OPERATIONS, routes: ROUTES }`. */
  api: Surface
  /** The sandbox control API (`SANDBOX_OPERATIONS` + `SANDBOX_ROUTES`); absent: no /sandbox/* routes. */
  sandbox?: Surface
  logger: Logger
  config: AppConfig
  /** For `timestamp` in /health. @default systemClock */
  clock?: Clock
  /** Request ids when the client sends none. @default crypto.randomUUID */
  newRequestId?: () => string
}

export interface AppConfig {
  /** The folder whose disk use /health reports. */
  dataDir: string
  /** Take the client address from `X-Forwarded-For` (behind a reverse proxy). @default false */
  trustProxy?: boolean
}

/** Builds the Koa app; `app.callback()` or `listen()` from http-server.ts serves it. */
export function createApp(options: AppOptions): Koa {
  const { gateway, logger, config } = options
  const app = new Koa({ proxy: config.trustProxy ?? false })
  // Errors of requests are answered by errorHandler; what reaches here failed after the answer (a stream).
  app.on('error', (err: unknown) => logger.error({ err }, 'response failed'))
  const router = new Router()

  mount(router, options.api, gateway)
  if (options.sandbox !== undefined) mountSandboxRoutes(router, options.sandbox, gateway)

  const cpuUsage = cpuSampler()
  router.get('/health', async (ctx) => {
    const clock = options.clock ?? systemClock
    const report = await healthReport({ stats: () => gateway.stats(), dataDir: config.dataDir, clock, cpuUsage })
    ctx.status = report.ok ? 200 : 503
    ctx.body = report.body
  })

  const documented: DocumentedSurface[] = [{ surface: options.api }]
  if (options.sandbox !== undefined) documented.push({ surface: options.sandbox, access: 'admin', tag: 'sandbox' })
  const openapi = JSON.stringify(buildOpenApi(documented, packageVersion()))
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8'
    ctx.body = openapi
  })
  mountApiDocs(router)

  app.use(requestId(options.newRequestId))
  app.use(accessLog(logger))
  app.use(errorHandler(logger))
  app.use(router.routes())
  return app
}

function packageVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version
}
