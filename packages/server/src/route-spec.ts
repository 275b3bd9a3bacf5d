/**
 * The shape of a route table: how one operation is reached over HTTP. Core's `OPERATIONS` and the
 * sandbox's `SANDBOX_OPERATIONS` each come with one such table, keyed by operation name.
 * @module
 */
import type { OperationTable } from '@switchboard/core'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface RouteSpec {
  method: HttpMethod
  /** Koa-router path; `:name` segments become input fields (and win over query and body). */
  path: string
  /**
   * Input fields read from the query string on a POST or PUT (for the API docs only: at run time
   * query, body and params are always merged). On GET and DELETE every non-path field is a query field.
   */
  query?: readonly string[]
  /** Sends `Deprecation: true` and marks the operation deprecated in the API docs. */
  deprecated?: true
}

export type RouteTable<Name extends string = string> = Readonly<Record<Name, RouteSpec>>

/** A table of operations over one target, with the route of each: what the server mounts. */
export interface Surface<T = any> {
  /** What `run` receives: the gateway, or the sandbox. */
  target: T
  operations: OperationTable<T>
  routes: RouteTable
}
