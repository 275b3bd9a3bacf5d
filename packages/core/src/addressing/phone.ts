/**
 * Phone numbers as the spec accepts them: digits with country code, optionally with a leading
 * `+`, spaces, dashes, dots or parentheses. Valid means 8 to 15 digits and a possible number for
 * its country code (libphonenumber's metadata, not a hand-written table).
 * @module
 */
import { validatePhoneNumberLength } from 'libphonenumber-js/max'
import { GatewayError } from '../errors/index.js'

const SEPARATORS = /[\s\-.()]/g

/** Digits of a valid number, or undefined. */
export function parsePhone(input: string): string | undefined {
  if (typeof input !== 'string') return undefined
  const stripped = input.trim().replace(SEPARATORS, '')
  const digits = stripped.startsWith('+') ? stripped.slice(1) : stripped
  if (!/^\d{8,15}$/.test(digits)) return undefined
  // `undefined` means the length is possible for the country the digits start with.
  if (validatePhoneNumberLength(`+${digits}`) !== undefined) return undefined
  return digits
}

/** Digits of a valid number; throws `Invalid phone number format` otherwise. */
export function normalizePhone(input: string): string {
  const digits = parsePhone(input)
  if (digits === undefined) throw new GatewayError('INVALID_PHONE_NUMBER')
  return digits
}
