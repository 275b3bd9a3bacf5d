export { take, peek, isExpired } from './fixed-window.js'
export type { WindowState, WindowRule, WindowDecision, TakeResult } from './fixed-window.js'
export { createMemoryRateLimiter } from './limiter.js'
export type { RateLimiter, MemoryRateLimiter, MemoryRateLimiterOptions } from './limiter.js'
export {
  MINUTE_MS,
  HOUR_MS,
  generalBucket,
  anonymousBucket,
  messagesBucket,
  sessionsBucket,
  rateLimitHeaders,
  assertAllowed,
  enforce,
} from './rules.js'
export type { RateLimitBucket, RateLimitHeaders } from './rules.js'
