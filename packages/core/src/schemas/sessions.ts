/**
 * Inputs of the session operations (params, query and body merged; params win).
 * @module
 */
import { z } from 'zod'
import { httpUrl, metadataObject, sessionIdParam } from './common.js'

export const createSessionInput = z.object({
  name: z.string().trim().min(1).max(100),
  webhookUrl: httpUrl.optional(),
  metadata: metadataObject.optional(),
})

export const sessionRefInput = z.object({ id: sessionIdParam })

export const qrInput = z.object({
  id: sessionIdParam,
  format: z.enum(['raw', 'png']).optional(),
})

export const requestCodeInput = z.object({
  id: sessionIdParam,
  phoneNumber: z.string().min(1).max(40),
})

export const setWebhookInput = z.object({
  id: sessionIdParam,
  url: httpUrl.nullable(),
})

export const checkNumberInput = z.object({
  id: sessionIdParam,
  phone: z.string().min(1).max(60),
})

export const sendTextInput = z.object({
  id: sessionIdParam,
  to: z.string().trim().min(1).max(100),
  text: z.string().min(1),
  quotedMessageId: z.string().min(1).max(200).optional(),
})
