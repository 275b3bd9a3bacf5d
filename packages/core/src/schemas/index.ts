export { GATEWAY_EVENT_NAMES } from './events.js'
export type * from './events.js'
