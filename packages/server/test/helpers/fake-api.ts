import { GatewayError } from '@switchboard/core'
import type { OperationSpec, OperationTable } from '@switchboard/core'
import { z } from 'zod'
import type { RouteTable, Surface } from '../../src/route-spec.js'
import type { FakeGateway } from './fake-gateway.js'

/** Lets a test hold a request open until it says so. */
export interface Gate {
  entered: Promise<void>
  release(): void
}

export function gate(): Gate & { wait: Promise<void>; enter(): void } {
  let enter!: () => void
  let release!: () => void
  const entered = new Promise<void>((resolve) => (enter = resolve))
  const wait = new Promise<void>((resolve) => (release = resolve))
  return { entered, enter, wait, release }
}

const echo = (summary: string, access: OperationSpec<FakeGateway>['access'], extra: Partial<OperationSpec<FakeGateway>> = {}): OperationSpec<FakeGateway> => ({
  summary,
  access,
  input: z.object({}).passthrough(),
  async run(_gateway, input, call) {
    return { op: summary, input, keyId: call.principal?.keyId ?? null, requestId: call.requestId ?? null }
  },
  ...extra,
})

/** A small operation table exercising every access rule and failure kind. */
export function fakeApi(gateway: FakeGateway, slow = gate()): Surface<FakeGateway> & { slow: ReturnType<typeof gate> } {
  const operations = {
    'things.create': echo('Create a thing', 'tenant', {
      successStatus: 201,
      input: z.object({ name: z.string().describe('Name of the thing'), tags: z.array(z.string()).optional() }),
    }),
    'things.list': echo('List things', 'tenant', { input: z.object({ includeInactive: z.enum(['true', 'false']).optional() }) }),
    'things.get': echo('Get a session thing', 'session', { input: z.object({ id: z.string(), format: z.enum(['png', 'raw']).optional() }) }),
    'things.update': echo('Update a session thing', 'session', {
      input: z.object({ id: z.string(), name: z.string(), dryRun: z.string().optional() }),
    }),
    'things.delete': echo('Delete a thing', 'admin', { input: z.object({ id: z.string() }) }),
    'things.legacy': echo('Old way', 'session', { input: z.object({ id: z.string() }) }),
    'admin.only': echo('Admin only', 'admin'),
    'public.ping': echo('Ping', 'public'),
    'fail.gateway': echo('Fails with a GatewayError', 'session', {
      async run() {
        throw new GatewayError('QR_NOT_AVAILABLE', { state: 'starting' }, { retryAfter: 2 })
      },
    }),
    'fail.unexpected': echo('Fails unexpectedly', 'session', {
      async run() {
        throw new Error('secret detail of the failure')
      },
    }),
    'slow.wait': echo('Waits for the test', 'session', {
      async run() {
        slow.enter()
        await slow.wait
        return { waited: true }
      },
    }),
    'nothing.returned': echo('Returns undefined', 'session', {
      async run() {
        return undefined
      },
    }),
    'things.special': echo('A literal path beside /sessions/:id', 'tenant'),
    'things.pair': echo('Answers an unknown session with its own text', 'session', { sessionNotFound: 'SESSION_NOT_FOUND_OR_NOT_STARTED' }),
  } satisfies OperationTable<FakeGateway>
  const routes = {
    'things.create': { method: 'POST', path: '/sessions/create' },
    'things.list': { method: 'GET', path: '/sessions' },
    'things.get': { method: 'GET', path: '/sessions/:id' },
    'things.update': { method: 'PUT', path: '/sessions/:id', query: ['dryRun'] },
    'things.delete': { method: 'DELETE', path: '/sessions/:id' },
    'things.legacy': { method: 'POST', path: '/sessions/:id/legacy', deprecated: true },
    'admin.only': { method: 'GET', path: '/admin/only' },
    'public.ping': { method: 'GET', path: '/ping' },
    'fail.gateway': { method: 'GET', path: '/sessions/:id/fail/gateway' },
    'fail.unexpected': { method: 'GET', path: '/sessions/:id/fail/unexpected' },
    'slow.wait': { method: 'GET', path: '/sessions/:id/slow' },
    'nothing.returned': { method: 'POST', path: '/sessions/:id/nothing' },
    'things.special': { method: 'GET', path: '/sessions/special' },
    'things.pair': { method: 'POST', path: '/sessions/:id/pair' },
  } as const satisfies RouteTable<keyof typeof operations>
  return { target: gateway, operations, routes, slow }
}

/** A sandbox-shaped control table: one route under /sandbox/. */
export function fakeSandboxApi(): Surface<{ accounts: string[] }> {
  const world = { accounts: [] as string[] }
  return {
    target: world,
    operations: {
      'accounts.create': {
        summary: 'Create an account',
        access: 'public',
        successStatus: 201,
        input: z.object({ phoneNumber: z.string() }),
        async run(target: { accounts: string[] }, input: { phoneNumber: string }) {
          target.accounts.push(input.phoneNumber)
          return { account: { phoneNumber: input.phoneNumber } }
        },
      },
      'sessions.drop': {
        summary: 'Drop a session',
        access: 'session',
        input: z.object({ id: z.string() }),
        async run(_target: unknown, input: { id: string }) {
          return { dropped: input.id }
        },
      },
    },
    routes: {
      'accounts.create': { method: 'POST', path: '/sandbox/accounts' },
      'sessions.drop': { method: 'POST', path: '/sandbox/sessions/:id/drop' },
    },
  }
}
