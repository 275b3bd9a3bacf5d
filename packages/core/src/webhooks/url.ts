/**
 * Validation of webhook URLs given by users (`webhookUrl` at session creation, `url` of
 * `PUT /sessions/{id}/webhook`). The URL is stored and posted to exactly as given, so a secret
 * carried in its query string keeps working.
 * @module
 */
import { z } from 'zod'
import { GatewayError } from '../errors/index.js'
import { HTTP_URL_RULE, isHttpUrl } from '../schemas/common.js'

/** True for an absolute `http:` or `https:` URL with a host. Loopback and private hosts are allowed (self-hosted receivers). */
export const isWebhookUrl: (value: unknown) => value is string = isHttpUrl

/** The 400 text for a bad webhook URL in `field`. */
export function webhookUrlReason(field: string): string {
  return `${field} ${HTTP_URL_RULE}`
}

/**
 * Returns `value` unchanged when it is a webhook URL, else throws `VALIDATION_FAILED`
 * (`webhookUrl must be a valid http or https URL`).
 */
export function assertWebhookUrl(value: unknown, field = 'webhookUrl'): string {
  if (!isWebhookUrl(value)) throw new GatewayError('VALIDATION_FAILED', { reason: webhookUrlReason(field) })
  return value
}

/** A zod schema for a webhook URL field, for operation input schemas (its issue text names `field`). */
export function webhookUrlSchema(field = 'webhookUrl'): z.ZodType<string> {
  return z.string().refine(isWebhookUrl, { message: webhookUrlReason(field) })
}
