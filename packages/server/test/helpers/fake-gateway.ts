import { GatewayError } from '@switchboard/core'
import type { AccessRule, Principal } from '@switchboard/core'
import type { GatewayStats, HttpGateway, RateLimitState } from '../../src/gateway-port.js'

export const ADMIN_KEY = 'wamk_admin0000000000000000000000000000'
export const TENANT_KEY = 'wamk_tenant000000000000000000000000000'
export const SESSION_KEY = 'wask_session1'
export const DEACTIVATED_KEY = 'wamk_deactivated'

const limits = { general: 100, messages: 30, sessions: 10, maxSessions: null }

const PRINCIPALS: Record<string, Principal> = {
  [ADMIN_KEY]: { kind: 'master', keyId: 'master', isAdmin: true, accountKeyId: 'master', limits },
  [TENANT_KEY]: { kind: 'managed', keyId: 'tenant', isAdmin: false, accountKeyId: 'tenant', limits },
  [SESSION_KEY]: { kind: 'session', keyId: 'sk1', isAdmin: false, sessionId: 's1', accountKeyId: 'master', limits },
}

export interface FakeGateway extends HttpGateway {
  /** Every call, in order, for assertions. */
  calls: { method: string; args: unknown[] }[]
  /** Requests allowed per subject before RATE_LIMITED. */
  limit: number
  /** Makes stats() fail. */
  statsFail: boolean
  closed: boolean
  close(): Promise<void>
}

/** A gateway facade with three known keys, session ids `s1`/`s2` (and `missing` unknown), and a counting limiter. */
export function fakeGateway(limit = 100): FakeGateway {
  const counts = new Map<string, number>()
  const gateway: FakeGateway = {
    calls: [],
    limit,
    statsFail: false,
    closed: false,
    async authenticate(rawKey) {
      gateway.calls.push({ method: 'authenticate', args: [rawKey] })
      if (rawKey === undefined) throw new GatewayError('API_KEY_REQUIRED')
      if (rawKey === DEACTIVATED_KEY) throw new GatewayError('API_KEY_DEACTIVATED')
      const principal = PRINCIPALS[rawKey]
      if (principal === undefined) throw new GatewayError('API_KEY_INVALID')
      return principal
    },
    async authorize(principal: Principal, access: AccessRule, sessionId?: string) {
      gateway.calls.push({ method: 'authorize', args: [principal.keyId, access, sessionId] })
      if (access === 'admin' && !principal.isAdmin) throw new GatewayError('ADMIN_KEY_REQUIRED')
      if (access === 'tenant' && principal.kind === 'session') throw new GatewayError('ADMIN_KEY_REQUIRED')
      if (access === 'session') {
        if (sessionId === 'missing') throw new GatewayError('SESSION_NOT_FOUND')
        if (principal.kind === 'session' && principal.sessionId !== sessionId) throw new GatewayError('SESSION_ACCESS_DENIED')
      }
    },
    async takeGeneralLimit(subject): Promise<RateLimitState> {
      const key = subject.principal?.accountKeyId ?? `address:${subject.address}`
      gateway.calls.push({ method: 'takeGeneralLimit', args: [key] })
      const used = (counts.get(key) ?? 0) + 1
      counts.set(key, used)
      const state = { limit: gateway.limit, remaining: gateway.limit - used, resetAtSec: 1_769_850_960 }
      if (used > gateway.limit) throw new GatewayError('RATE_LIMITED', { retryAfter: 42, ...state, remaining: 0 })
      return state
    },
    async stats(): Promise<GatewayStats> {
      if (gateway.statsFail) throw new Error('store unreachable')
      return { sessions: { total: 2, byState: { ready: 1, qr_ready: 1 } }, webhooks: { pending: 3, deadLettered: 0 }, network: 'sandbox', store: 'memory' }
    },
    async close() {
      gateway.closed = true
    },
  }
  return gateway
}
