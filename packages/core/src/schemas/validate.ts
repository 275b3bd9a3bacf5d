/**
 * Input validation shared by every Gateway method and so by the REST layer: one zod schema per
 * operation, and one rule for turning the first problem into a 400 whose text names the field
 * (`name is required`, `trialDays must be a number`).
 * @module
 */
import { z } from 'zod'
import { GatewayError } from '../errors/index.js'

function describeExpected(expected: string): string {
  switch (expected) {
    case 'array':
      return 'an array'
    case 'object':
      return 'an object'
    case 'int':
      return 'an integer'
    default:
      return `a ${expected}`
  }
}

/** The 400 text for one zod issue. */
export function issueText(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body'
  const given = issue.path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  )
  switch (issue.code) {
    case 'invalid_type':
      if (given === undefined || given === null) return `${field} is required`
      return `${field} must be ${describeExpected(issue.expected)}`
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? `${field} must not be empty` : `${field} must be at least ${issue.minimum} characters`
      if (issue.origin === 'array') return `${field} must have at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`
      return `${field} must be at least ${issue.minimum}`
    case 'too_big':
      if (issue.origin === 'string') return `${field} must be at most ${issue.maximum} characters`
      if (issue.origin === 'array') return `${field} must have at most ${issue.maximum} items`
      return `${field} must be at most ${issue.maximum}`
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}`
    case 'invalid_format':
      return issue.format === 'url' ? `${field} must be a valid URL` : `${field} has an invalid format`
    default:
      // Custom refinements state the rule ("must be …"); the field name is added here.
      return /^must\b/.test(issue.message) ? `${field} ${issue.message}` : issue.message
  }
}

/** Parses `input` or throws `VALIDATION_FAILED` naming the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  throw new GatewayError('VALIDATION_FAILED', { reason: issueText(issue, input) })
}

/**
 * Query-string booleans arrive as strings: `true`/`1` are true, `false`/`0` false.
 */
export const queryBoolean = z.preprocess((value) => {
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  return value
}, z.boolean())
