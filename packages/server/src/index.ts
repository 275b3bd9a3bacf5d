/**
 * `@switchboard/server`: the Koa REST server over `@switchboard/core`.
 * @module
 */
export { createApp } from './app.js'
export type { AppConfig, AppOptions } from './app.js'
export { startServer } from './start-server.js'
export { composeServer } from './compose.js'
export type { GatewayParts, RunningServer, ServedGateway, ServerParts, StartOptions } from './compose.js'
export { loadConfig, ConfigError, flagOf, usage } from './config.js'
export type { ConfigSources, LogLevel, NetworkKind, ServerConfig } from './config.js'
export type { GatewayStats, HttpGateway, RateLimitState } from './gateway-port.js'
export { listen } from './http-server.js'
export type { Listening, ListenOptions } from './http-server.js'
export { HEALTH_THRESHOLDS } from './health.js'
export { buildOpenApi } from './openapi.js'
export { ROUTES } from './routes.js'
export type { OperationName } from './routes.js'
export type { HttpMethod, RouteSpec, RouteTable, Surface } from './route-spec.js'
