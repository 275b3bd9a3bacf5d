import { ERRORS, type ErrorCode, type ErrorDetails, type ErrorSpec } from './catalog.js'

const BRAND = Symbol.for('switchboard.error')

type DetailsArg<C extends ErrorCode> = [ErrorDetails<C>] extends [never]
  ? [details?: Record<string, unknown>, options?: GatewayErrorOptions]
  : [details: ErrorDetails<C> & Record<string, unknown>, options?: GatewayErrorOptions]

export interface GatewayErrorOptions {
  cause?: unknown
  /** Seconds the client should wait before retrying (sets `retryAfter` and `Retry-After`). */
  retryAfter?: number
}

/**
 * The one error type of Switchboard. Its message is the catalog's exact text; only the HTTP layer
 * turns it into a response. `instanceof` works across two copies of the package (brand check).
 */
export class GatewayError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C
  readonly status: number
  readonly details: Record<string, unknown>
  readonly retryAfter: number | undefined

  constructor(code: C, ...[details, options]: DetailsArg<C>) {
    const spec = ERRORS[code] as ErrorSpec<unknown>
    const message = typeof spec.message === 'function' ? spec.message(details) : spec.message
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'GatewayError'
    this.code = code
    this.status = spec.status
    this.details = (details ?? {}) as Record<string, unknown>
    const fromDetails = (details as { retryAfter?: unknown } | undefined)?.retryAfter
    this.retryAfter = options?.retryAfter ?? (typeof fromDetails === 'number' ? fromDetails : undefined)
    if (this.retryAfter === undefined && spec.retryable) this.retryAfter = 1
  }

  get [BRAND](): true {
    return true
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isGatewayError(value)
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
}

/** True when `value` is a GatewayError with the given code. */
export function hasErrorCode<C extends ErrorCode>(value: unknown, code: C): value is GatewayError<C> {
  return isGatewayError(value) && value.code === code
}
