/**
 * Test-only faults: make the next call of a driver member fail, as a flaky network would.
 * @module
 */
import { GatewayError } from '@switchboard/core'

/** Driver members a fault can target. */
export type FaultOp =
  | 'open'
  | 'requestPairingCode'
  | 'close'
  | 'send'
  | 'message'
  | 'chat'
  | 'group'
  | 'profile'
  | 'contact'
  | 'downloadMedia'

export interface FaultOptions {
  /** Only calls for this session (default: any session). */
  sessionId?: string
  /** How many calls fail (default 1). */
  times?: number
}

interface Armed {
  op: FaultOp
  error: Error
  sessionId: string | undefined
  remaining: number
}

export class Faults {
  #armed: Armed[] = []

  /** The next matching call throws `error` (default `WhatsApp is temporarily unavailable. Please try again.`). */
  failNext(op: FaultOp, error: Error = new GatewayError('NETWORK_UNAVAILABLE'), options: FaultOptions = {}): void {
    this.#armed.push({ op, error, sessionId: options.sessionId, remaining: options.times ?? 1 })
  }

  /** Throws the first armed fault matching the call, using it up. */
  check(op: FaultOp, sessionId: string): void {
    const fault = this.#armed.find((f) => f.op === op && (f.sessionId === undefined || f.sessionId === sessionId))
    if (!fault) return
    if (--fault.remaining <= 0) this.#armed = this.#armed.filter((f) => f !== fault)
    throw fault.error
  }

  clear(): void {
    this.#armed = []
  }

  /** How many faults are still armed. */
  get pending(): number {
    return this.#armed.reduce((sum, f) => sum + f.remaining, 0)
  }
}
