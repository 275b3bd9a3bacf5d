/**
 * GET /openapi.json: the API description, generated from the operation tables and their routes,
 * so it cannot drift from what is mounted.
 * @module
 */
import type { AccessRule, OperationSpec } from '@switchboard/core'
import type { RouteSpec, Surface } from './route-spec.js'

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] }

export interface DocumentedSurface {
  surface: Surface
  /** As in {@link MountOptions.access}. */
  access?: AccessRule
  /** Tag for every operation of the surface (default: the first part of the operation name). */
  tag?: string
}

const SECURITY = [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ApiKeyQuery: [] }]
const ERROR_STATUSES = {
  '400': 'Invalid input or malformed request',
  '401': 'Missing or invalid API key',
  '403': 'The key lacks access',
  '404': 'Session or resource not found',
  '429': 'Rate limit exceeded',
  '500': 'Internal server error',
  '503': 'Temporarily unavailable',
}
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute (general limit)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the window resets', schema: { type: 'integer' } },
}

/** An OpenAPI 3.1 document for the given surfaces plus GET /health. */
export function buildOpenApi(surfaces: readonly DocumentedSurface[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {
    '/health': { get: healthOperation() },
  }
  for (const { surface, access, tag } of surfaces) {
    for (const [name, route] of Object.entries(surface.routes)) {
      const op = surface.operations[name]
      if (op === undefined) continue
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(name, op, route, access ?? op.access, tag) }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchboard',
      version,
      description:
        'Self-hosted WhatsApp HTTP gateway. Every JSON response carries a boolean `success`; ' +
        'failures carry `success: false` and a string `error`.',
    },
    paths,
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerAuth: { type: 'http', scheme: 'bearer' },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: { type: 'string' },
            retryAfter: { type: 'integer', description: 'Seconds to wait before retrying (429 and some 503)' },
          },
        },
        Success: {
          type: 'object',
          required: ['success'],
          properties: { success: { const: true } },
          additionalProperties: true,
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `Error${status}`,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
    security: SECURITY,
  }
}

function operation(
  name: string,
  op: OperationSpec<unknown>,
  route: RouteSpec,
  access: AccessRule,
  tag: string | undefined,
): Record<string, unknown> {
  const schema = inputSchema(op)
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const pathNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
  const hasBody = route.method === 'POST' || route.method === 'PUT'
  const inQuery = (field: string): boolean => !hasBody || (route.query?.includes(field) ?? false)
  const parameters: Record<string, unknown>[] = pathNames.map((field) => ({
    name: field,
    in: 'path',
    required: true,
    schema: properties[field] ?? { type: 'string' },
  }))
  const bodyProperties: Record<string, unknown> = {}
  for (const [field, fieldSchema] of Object.entries(properties)) {
    if (pathNames.includes(field)) continue
    if (inQuery(field)) parameters.push({ name: field, in: 'query', required: required.has(field), schema: fieldSchema })
    else bodyProperties[field] = fieldSchema
  }
  const result: Record<string, unknown> = {
    operationId: name,
    summary: op.summary,
    tags: [tag ?? name.split('.')[0]!],
    security: access === 'public' ? [] : SECURITY,
    parameters,
  }
  if (route.deprecated) result.deprecated = true
  const bodySchema = schema.properties === undefined ? schema : bodyObject(bodyProperties, required)
  if (hasBody && (schema.properties === undefined || Object.keys(bodyProperties).length > 0)) {
    const bodyRequired = Object.keys(bodyProperties).some((field) => required.has(field))
    result.requestBody = { required: bodyRequired, content: { 'application/json': { schema: bodySchema } } }
  }
  const errors = access === 'public' ? ['400', '404', '500'] : Object.keys(ERROR_STATUSES)
  result.responses = {
    [String(op.successStatus ?? 200)]: {
      description: op.summary,
      ...(access === 'public' ? {} : { headers: RATE_LIMIT_HEADERS }),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
    },
    ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/Error${status}` }])),
  }
  return result
}

function inputSchema(op: OperationSpec<unknown>): JsonSchema {
  const { $schema: _dialect, ...schema } = op.input.toJSONSchema({ io: 'input', unrepresentable: 'any' }) as JsonSchema
  return schema
}

function bodyObject(properties: Record<string, unknown>, required: Set<string>): JsonSchema {
  const names = Object.keys(properties).filter((field) => required.has(field))
  return { type: 'object', properties, ...(names.length > 0 ? { required: names } : {}) }
}

function healthOperation(): Record<string, unknown> {
  return {
    operationId: 'health',
    summary: 'Service health: status by CPU, memory and disk thresholds, host figures and gateway counts',
    tags: ['health'],
    security: [],
    responses: {
      '200': {
        description:
          'Status `healthy`, `warning` or `critical`, with cpu, memory, disk, platform, uptime, nodeVersion, ' +
          'loadAverage and the gateway counts',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
      },
      '503': { description: 'The gateway could not report its figures (status `critical`)' },
    },
  }
}
