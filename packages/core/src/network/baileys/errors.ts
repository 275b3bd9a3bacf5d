/**
 * Baileys errors (Boom with `output.statusCode`, or plain errors from the socket) translated into
 * the GatewayError catalog at the driver boundary, so no Boom reaches a room or a client. The
 * original error travels as `cause` for the logs.
 * @module
 */
import { GatewayError, isGatewayError } from '../../errors/index.js'

/** What the failing call was about; decides what a 404 or 403 means. */
export type ErrorContext = 'send' | 'message' | 'chat' | 'group' | 'profile' | 'contact' | 'pairing' | 'media'

interface BoomLike {
  isBoom: true
  message: string
  output: { statusCode: number }
}

export function isBoom(err: unknown): err is BoomLike {
  const candidate = err as Partial<BoomLike> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.isBoom === true &&
    typeof candidate.output?.statusCode === 'number'
  )
}

/** The Boom status code of an error, if it has one. */
export function statusCodeOf(err: unknown): number | undefined {
  return isBoom(err) ? err.output.statusCode : undefined
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Messages Baileys throws when the socket is gone or a query timed out. */
const UNAVAILABLE_TEXT = /connection (closed|terminated|lost)|timed out|app state key not present|media upload failed|ECONN|ETIMEDOUT|socket hang up/i
const UNAVAILABLE_CODES = new Set([408, 428, 440, 500, 502, 503, 504, 515])

export function toGatewayError(err: unknown, context: ErrorContext): GatewayError {
  if (isGatewayError(err)) return err
  const options = { cause: err }
  const code = statusCodeOf(err)
  const text = messageOf(err)
  if (/^Not authenticated$/i.test(text) || (code === 401 && /not authenticated|logged ?out/i.test(text))) {
    return new GatewayError('NOT_AUTHENTICATED', undefined, options)
  }
  if (/unable to resolve (lid|pn)/i.test(text)) return new GatewayError('CONTACT_NOT_FOUND', undefined, options)
  if (context === 'profile' && /unsupported image|input buffer|image processing|vips|corrupt/i.test(text)) {
    return new GatewayError('INVALID_IMAGE', undefined, options)
  }
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return new GatewayError('NETWORK_UNAVAILABLE', undefined, options)
  if (UNAVAILABLE_TEXT.test(text)) return new GatewayError('NETWORK_UNAVAILABLE', undefined, options)
  if (code === 404 || /item-not-found/i.test(text)) {
    switch (context) {
      case 'group':
        return new GatewayError('GROUP_NOT_FOUND', undefined, options)
      case 'message':
      case 'media':
        return new GatewayError('MESSAGE_NOT_FOUND', undefined, options)
      case 'contact':
        return new GatewayError('CONTACT_NOT_FOUND', undefined, options)
    }
  }
  if (context === 'group' && (code === 403 || /forbidden/i.test(text))) {
    return new GatewayError('GROUP_NOT_FOUND', undefined, options)
  }
  return new GatewayError('INTERNAL', undefined, options)
}

/** Runs a Baileys call and translates whatever it throws. */
export async function translated<T>(context: ErrorContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    throw toGatewayError(err, context)
  }
}
