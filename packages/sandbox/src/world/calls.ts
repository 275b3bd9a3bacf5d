/**
 * Voice and video calls, as far as a gateway sees them: an offer, then how it ended. The world
 * keeps no timers; whoever rings decides when an unanswered call times out.
 * @module
 */
import { GatewayError, isGroupJid, normalizeUserJid } from '@switchboard/core'
import type { CallStatus, Jid } from '@switchboard/core'
import type { Accounts } from './accounts.js'
import type { WorldCore } from './core.js'
import { callId } from './ids.js'
import { notice } from './notices.js'

interface Call {
  id: string
  from: string
  to: string
  isVideo: boolean
}

export class Calls {
  readonly #active = new Map<string, Call>()

  constructor(
    private readonly core: WorldCore,
    private readonly accounts: Accounts,
  ) {}

  /** `phone` calls a user; the callee's devices get an `offer`. Returns the call id. */
  offer(phone: string, to: Jid, isVideo = false): string {
    this.core.requireAccount(phone)
    if (isGroupJid(to)) throw new GatewayError('INVALID_JID')
    const callee = this.accounts.resolve(normalizeUserJid(to))
    if (callee === undefined) throw new GatewayError('NUMBER_NOT_REGISTERED')
    const call: Call = { id: callId(this.core.newId), from: phone, to: callee, isVideo }
    this.#active.set(call.id, call)
    this.#tell(call, 'offer')
    return call.id
  }

  /** Ends a ringing call (`accept`, `reject` or `timeout`); unknown or ended calls change nothing. */
  end(id: string, status: Exclude<CallStatus, 'offer'>): void {
    const call = this.#active.get(id)
    if (!call) return
    this.#active.delete(id)
    this.#tell(call, status)
  }

  isRinging(id: string): boolean {
    return this.#active.has(id)
  }

  #tell(call: Call, status: CallStatus): void {
    this.core.toAccount(
      call.to,
      notice('call', {
        callId: call.id,
        from: this.core.jidOf(call.from),
        status,
        isVideo: call.isVideo,
        isGroup: false,
        timestampSec: this.core.nowSec(),
      }),
    )
  }
}
