/**
 * Operations: the one-to-one map between the REST interface and the Gateway. Each operation
 * names its input schema (params, query and body merged, params winning), who may call it, and
 * how to run it. The server mounts a route per operation and nothing else; the sandbox's control
 * API uses the same shape.
 * @module
 */
import type { z } from 'zod'

/**
 * Who may call an operation:
 * - `public`: no key (health, docs);
 * - `admin`: an admin key (the master key, or a managed key with `isAdmin`);
 * - `tenant`: any `wamk_` key (admin or not), e.g. creating or listing sessions;
 * - `session`: the session's own key, or a `wamk_` key that may reach that session (`:id` param).
 */
export type AccessRule = 'public' | 'admin' | 'tenant' | 'session'

/** What an authenticated key is allowed to do and under which limits. */
export interface Principal {
  kind: 'master' | 'managed' | 'session'
  /** Key id (`master` for the master key). */
  keyId: string
  /** May call `/admin/*` and reach every session. */
  isAdmin: boolean
  /** Session keys: the one session they reach. */
  sessionId?: string
  /** The key whose limits, usage and ownership apply (a session key's creator; else the key itself). */
  accountKeyId: string
  limits: { general: number; messages: number; sessions: number; maxSessions: number | null }
  trial?: { expiresAtMs: number; allowedNumbers: string[] }
}

export interface CallContext {
  principal?: Principal
  /** Request id for logs. */
  requestId?: string
}

export interface OperationSpec<Target, I = any, O = any> {
  /** One line for the API docs. */
  summary: string
  access: AccessRule
  input: z.ZodType<I>
  /** HTTP status of a success (decisions.md: 201 for creations). */
  successStatus?: 200 | 201
  /**
   * The error for an `:id` session that does not exist, when the operation has its own text
   * (decisions.md: the pairing code answers `Session not found or not started`).
   * @default 'SESSION_NOT_FOUND'
   */
  sessionNotFound?: 'SESSION_NOT_FOUND' | 'SESSION_NOT_FOUND_OR_NOT_STARTED'
  run(target: Target, input: I, call: CallContext): Promise<O>
}

export type OperationTable<Target> = Record<string, OperationSpec<Target>>
