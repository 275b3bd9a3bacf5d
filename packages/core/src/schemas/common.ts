/**
 * Building blocks shared by the operation schemas.
 * @module
 */
import { z } from 'zod'

/** Path parameter `:id` (a session id). */
export const sessionIdParam = z.string().min(1).max(200)

/** True for an absolute `http:` or `https:` URL with a host, given without surrounding spaces. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() !== value || value === '') return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
}

/** The rule an http(s) URL field breaks (the validation text prefixes the field name). */
export const HTTP_URL_RULE = 'must be a valid http or https URL'

/** An http(s) URL (webhook targets, media URLs). */
export const httpUrl = z.string().max(2048).refine(isHttpUrl, HTTP_URL_RULE)

/** A free-form metadata object: JSON, at most 16 KiB serialized. */
export const metadataObject = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'must be at most 16384 bytes as JSON')
