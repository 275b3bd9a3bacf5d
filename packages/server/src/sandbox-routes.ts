/**
 * The sandbox control API (/sandbox/*): mounted only when the server runs on the sandbox network,
 * over the sandbox's own operation table, with the same handler as every other route and behind
 * an admin key.
 * @module
 */
import type { Router } from '@koa/router'
import type { HttpGateway } from './gateway-port.js'
import { mount } from './mount.js'
import type { Surface } from './route-spec.js'

/** Every sandbox route lives under this prefix, so it can never shadow a route of the real API. */
export const SANDBOX_PREFIX = '/sandbox/'

/** Mounts `surface` (SANDBOX_OPERATIONS + SANDBOX_ROUTES over a sandbox) with access `admin` for all. */
export function mountSandboxRoutes(router: Router, surface: Surface, gateway: HttpGateway): void {
  for (const [name, route] of Object.entries(surface.routes)) {
    if (!route.path.startsWith(SANDBOX_PREFIX)) {
      throw new Error(`Sandbox route ${name} must start with ${SANDBOX_PREFIX}: ${route.path}`)
    }
  }
  mount(router, surface, gateway, { access: 'admin' })
}
