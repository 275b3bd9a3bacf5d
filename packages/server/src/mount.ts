/**
 * The one generic handler: every route of a {@link Surface} is mounted here and nowhere else.
 * @module
 */
import { GatewayError, hasErrorCode, isGatewayError } from '@switchboard/core'
import type { AccessRule, CallContext, OperationSpec, Principal } from '@switchboard/core'
import type { Router, RouterContext } from '@koa/router'
import type { HttpGateway, RateLimitState } from './gateway-port.js'
import { API_KEY_QUERY, readApiKey } from './middleware/api-key.js'
import { jsonBody } from './middleware/json-body.js'
import type { RouteSpec, Surface } from './route-spec.js'

export interface MountOptions {
  /** Replaces every operation's own access rule (the sandbox control API is admin-only). */
  access?: AccessRule
}

/**
 * Mounts one route per operation of `surface`. Each request: key → authenticate → general limit
 * (headers) → authorize → JSON body → `run(target, { ...query, ...body, ...params })` →
 * `{ success: true, ...result }`.
 * Throws at once when a route has no operation or an operation no route.
 */
export function mount(router: Router, surface: Surface, gateway: HttpGateway, options: MountOptions = {}): void {
  checkOneToOne(surface)
  const parseBody = jsonBody()
  for (const [name, route] of byPrecedence(surface.routes)) {
    const op = surface.operations[name]!
    const access = options.access ?? op.access
    router.register(route.path, [route.method], async (ctx: RouterContext) => {
      if (route.deprecated) ctx.set('Deprecation', 'true')
      const call: CallContext = { requestId: ctx.state.requestId as string }
      if (access !== 'public') call.principal = await admit(ctx, gateway, access, op.sessionNotFound)
      // Parsed only once the key is known: an anonymous client cannot make the server read 25 MB.
      await parseBody(ctx, async () => {})
      const result: unknown = await (op as OperationSpec<unknown>).run(surface.target, inputOf(ctx), call)
      ctx.status = op.successStatus ?? 200
      ctx.body = { success: true, ...(result as object | undefined) }
    })
  }
}

async function admit(
  ctx: RouterContext,
  gateway: HttpGateway,
  access: AccessRule,
  sessionNotFound: OperationSpec<unknown>['sessionNotFound'],
): Promise<Principal> {
  const address = ctx.ip
  let principal: Principal
  try {
    principal = await gateway.authenticate(readApiKey(ctx))
  } catch (err) {
    // decisions.md: requests with no valid key count against their client address.
    if (isGatewayError(err)) await takeLimit(ctx, gateway, { address })
    throw err
  }
  await takeLimit(ctx, gateway, { principal, address })
  try {
    await gateway.authorize(principal, access, ctx.params.id)
  } catch (err) {
    // An operation may answer an unknown session with its own text (the pairing code does).
    if (sessionNotFound === undefined || !hasErrorCode(err, 'SESSION_NOT_FOUND')) throw err
    throw new GatewayError(sessionNotFound, {}, { cause: err })
  }
  return principal
}

async function takeLimit(
  ctx: RouterContext,
  gateway: HttpGateway,
  subject: { principal?: Principal; address: string },
): Promise<void> {
  try {
    setLimitHeaders(ctx, await gateway.takeGeneralLimit(subject))
  } catch (err) {
    if (hasErrorCode(err, 'RATE_LIMITED')) setLimitHeaders(ctx, err.details)
    throw err
  }
}

function setLimitHeaders(ctx: RouterContext, state: Partial<Record<keyof RateLimitState, unknown>>): void {
  const { limit, remaining, resetAtSec } = state
  if (typeof limit === 'number') ctx.set('X-RateLimit-Limit', String(limit))
  if (typeof remaining === 'number') ctx.set('X-RateLimit-Remaining', String(Math.max(0, remaining)))
  if (typeof resetAtSec === 'number') ctx.set('X-RateLimit-Reset', String(resetAtSec))
}

/** `{ ...query, ...body, ...params }`, params winning; the key's query parameter is not input. */
function inputOf(ctx: RouterContext): Record<string, unknown> {
  const { [API_KEY_QUERY]: _key, ...query } = ctx.query
  const body: unknown = (ctx.request as { body?: unknown }).body ?? {}
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('VALIDATION_FAILED', { reason: 'body must be a JSON object' })
  }
  return { ...query, ...body, ...ctx.params }
}

function checkOneToOne(surface: Surface): void {
  for (const name of Object.keys(surface.routes)) {
    if (!(name in surface.operations)) throw new Error(`Route for unknown operation ${name}`)
  }
  for (const name of Object.keys(surface.operations)) {
    if (!(name in surface.routes)) throw new Error(`Operation ${name} has no route`)
  }
}

/**
 * Literal segments are registered before parameters at the first place two paths differ, so
 * `/sessions/create` is never taken by a `/sessions/:id` route (the first matching route answers).
 */
export function byPrecedence(routes: Readonly<Record<string, RouteSpec>>): [string, RouteSpec][] {
  const kinds = (path: string): number[] => path.split('/').map((segment) => (segment.startsWith(':') ? 1 : 0))
  return Object.entries(routes).sort(([, a], [, b]) => {
    const ka = kinds(a.path)
    const kb = kinds(b.path)
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      if (ka[i] !== kb[i]) return ka[i]! - kb[i]!
    }
    return ka.length - kb.length
  })
}
