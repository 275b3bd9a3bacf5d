/**
 * OPERATIONS: every REST operation of the gateway, one entry each. The server mounts exactly
 * these (its route table is checked against this list by the compiler).
 * @module
 */
import type { Gateway } from '../gateway.js'
import { ADMIN_OPERATIONS } from './admin.js'
import { SESSION_OPERATIONS } from './sessions.js'
import type { OperationSpec } from './types.js'

export const OPERATIONS = {
  ...SESSION_OPERATIONS,
  ...ADMIN_OPERATIONS,
} as const satisfies Record<string, OperationSpec<Gateway>>

export type OperationName = keyof typeof OPERATIONS

export type { AccessRule, CallContext, OperationSpec, OperationTable, Principal } from './types.js'
