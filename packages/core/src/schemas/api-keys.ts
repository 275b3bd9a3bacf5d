/**
 * Inputs of the admin key endpoints (`/admin/api-keys*`). Run them through `parseInput` so a
 * refusal is a 400 whose text names the field. Bounds the spec leaves open are set here once:
 * names up to 200 characters, limits up to 1,000,000, `maxSessions` up to 100,000 (or null for
 * unlimited), trial days up to 3650, up to 100 allowed numbers, metadata up to 16384 characters of JSON.
 * @module
 */
import { z } from 'zod'
import { queryBoolean } from './validate.js'

/** A key `type` that only the trial endpoint may create. */
export const TRIAL_TYPE = 'trial'
export const MAX_METADATA_JSON_CHARS = 16_384

const rateLimit = z.number().int().min(1).max(1_000_000)
const maxSessions = z.number().int().min(1).max(100_000)
const days = z.number().int().min(1).max(3650)
const keyName = z.string().trim().min(1).max(200)
/** Open-ended (`standard`, `premium`, or any plan name): lower case letters, digits, `-` and `_`. */
const keyType = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(50)
  .refine((type) => /^[a-z0-9][a-z0-9_-]*$/.test(type), { message: 'type must contain only letters, digits, - and _' })
const paidType = keyType.refine((type) => type !== TRIAL_TYPE, {
  message: 'type trial is only available through POST /admin/api-keys/trial',
})
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value).length
  } catch {
    return Number.POSITIVE_INFINITY
  }
}
const metadata = z.looseObject({}).refine((value) => jsonLength(value) <= MAX_METADATA_JSON_CHARS, {
  message: `metadata must be at most ${MAX_METADATA_JSON_CHARS} bytes as JSON`,
})

function atLeastOne(fields: readonly string[]): { check: (value: object) => boolean; message: string } {
  return {
    check: (value) => fields.some((field) => (value as Record<string, unknown>)[field] !== undefined),
    message: `body must contain at least one of: ${fields.join(', ')}`,
  }
}

/** `:id` of `/admin/api-keys/{id}...`. */
export const apiKeyIdInput = z.object({ id: z.string().min(1) })

/** `POST /admin/api-keys`. `maxSessions: null` means unlimited. */
export const createApiKeyInput = z.object({
  name: keyName,
  type: paidType.optional(),
  isAdmin: z.boolean().optional(),
  rateLimitGeneral: rateLimit.optional(),
  rateLimitMessages: rateLimit.optional(),
  rateLimitSessions: rateLimit.optional(),
  maxSessions: maxSessions.nullable().optional(),
  metadata: metadata.optional(),
})

/** `POST /admin/api-keys/trial`. */
export const createTrialKeyInput = z.object({
  name: keyName,
  trialDays: days,
  allowedNumbers: z.array(z.string()).min(1).max(100),
  rateLimitMessages: rateLimit.optional(),
  maxSessions: maxSessions.optional(),
  metadata: metadata.optional(),
})

/** `GET /admin/api-keys` (query). */
export const listApiKeysInput = z.object({
  includeInactive: queryBoolean.optional(),
  type: keyType.optional(),
})

const updateFields = ['name', 'rateLimitGeneral', 'rateLimitMessages', 'rateLimitSessions', 'maxSessions', 'metadata'] as const
const updateRule = atLeastOne(updateFields)
/** `PUT /admin/api-keys/{id}` (body). `rateLimitSessions` and `metadata` are Switchboard additions. */
export const updateApiKeyInput = z
  .object({
    name: keyName.optional(),
    rateLimitGeneral: rateLimit.optional(),
    rateLimitMessages: rateLimit.optional(),
    rateLimitSessions: rateLimit.optional(),
    maxSessions: maxSessions.nullable().optional(),
    metadata: metadata.optional(),
  })
  .refine(updateRule.check, { message: updateRule.message })

const limitFields = ['general', 'messages', 'sessions'] as const
const limitsRule = atLeastOne(limitFields)
/** `PUT /admin/api-keys/{id}/rate-limits` (body). */
export const setRateLimitsInput = z
  .object({ general: rateLimit.optional(), messages: rateLimit.optional(), sessions: rateLimit.optional() })
  .refine(limitsRule.check, { message: limitsRule.message })

/** `POST /admin/api-keys/{id}/extend-trial` (body). */
export const extendTrialInput = z.object({ days })

/** `POST /admin/api-keys/{id}/convert-to-paid` (body). Unset limits take the new type's defaults. */
export const convertToPaidInput = z.object({
  type: paidType,
  rateLimitGeneral: rateLimit.optional(),
  rateLimitMessages: rateLimit.optional(),
  rateLimitSessions: rateLimit.optional(),
  maxSessions: maxSessions.nullable().optional(),
})

export type CreateApiKeyInput = z.input<typeof createApiKeyInput>
export type CreateTrialKeyInput = z.input<typeof createTrialKeyInput>
export type ListApiKeysInput = z.input<typeof listApiKeysInput>
export type UpdateApiKeyInput = z.input<typeof updateApiKeyInput>
export type SetRateLimitsInput = z.input<typeof setRateLimitsInput>
export type ExtendTrialInput = z.input<typeof extendTrialInput>
export type ConvertToPaidInput = z.input<typeof convertToPaidInput>
