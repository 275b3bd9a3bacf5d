/**
 * startServer: the real composition (used by main.ts and the end-to-end tests).
 * @module
 */
import { createGateway, OPERATIONS, openStore } from '@switchboard/core'
import type { Gateway } from '@switchboard/core'
import { composeServer, type GatewayParts, type RunningServer, type StartOptions } from './compose.js'
import type { ServerConfig } from './config.js'
import { loadNetwork } from './network.js'
import { ROUTES } from './routes.js'

export type { RunningServer, StartOptions } from './compose.js'

/**
 * Opens the store, builds the network and the gateway, starts them and listens.
 * @example
 * const env = { SWITCHBOARD_NETWORK: 'sandbox', SWITCHBOARD_STORE: 'memory', PORT: '0', HOST: '127.0.0.1' }
 * const server = await startServer(loadConfig({ env, argv: [] }))
 * await fetch(`${server.url}/health`)
 * await server.close()
 */
export function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer<Gateway>> {
  const parts = { openStore, loadNetwork, createGateway: gatewayFor, operations: OPERATIONS, routes: ROUTES }
  return composeServer(config, parts, options)
}

/**
 * Every gateway setting of the server configuration. Not options of the gateway yet (their rooms
 * come later): mediaDir, allowPrivateMediaUrls, broadcastDelayMs, scheduleGraceMs.
 */
function gatewayFor(config: ServerConfig, parts: GatewayParts): Promise<Gateway> {
  return createGateway({
    ...parts,
    adminKey: config.adminKey,
    limits: config.rateLimits,
    webhooks: { retryBaseMs: config.webhookRetryBaseMs, retryMaxMs: config.webhookRetryMaxMs },
  })
}
