/**
 * Building blocks shared by the operation schemas.
 * @module
 */
import { z } from 'zod'

/** Path parameter `:id` (a session id). */
export const sessionIdParam = z.string().min(1).max(200)

/** An http(s) URL (webhook targets, media URLs). */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value)
      return url.protocol === 'http:' || url.protocol === 'https:'
    } catch {
      return false
    }
  }, 'must be an http(s) URL')

/** A free-form metadata object: JSON, at most 16 KiB serialized. */
export const metadataObject = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'must be at most 16384 bytes as JSON')
