export { ERRORS } from './catalog.js'
export type { ErrorCode, ErrorDetails, ErrorSpec } from './catalog.js'
export { GatewayError, isGatewayError, hasErrorCode } from './gateway-error.js'
export type { GatewayErrorOptions } from './gateway-error.js'
