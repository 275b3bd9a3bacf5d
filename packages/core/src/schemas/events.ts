/**
 * The gateway's public events: exactly the webhook events of the interface spec. Each payload is
 * the JSON body posted to the session's webhook. `gateway.on(name, fn)` subscribes to one;
 * the webhooks room subscribes to all through `gateway.onEvent`.
 * @module
 */

interface Base<E extends string, T extends string | number> {
  event: E
  sessionId: string
  /** ISO string for connection, message and scheduled events; Unix seconds for the others (spec). */
  timestamp: T
}

export type QrReadyEvent = Base<'qr_ready', string>
export type AuthenticatedEvent = Base<'authenticated', string> & { phoneNumber: string }
export type ReadyEvent = Base<'ready', string> & { phoneNumber: string }
export type DisconnectedEvent = Base<'disconnected', string> & { error: string; willReconnect: boolean }
export type LoggedOutEvent = Base<'logged_out', string>

export interface ReceivedMessagePayload {
  id: string
  from: string
  /** The sender's LID when the network gave one (Switchboard addition, so `@lid` and phone forms can be joined). */
  fromLid?: string
  to: string
  body: string
  type: string
  /** Unix seconds. */
  timestamp: number
  hasMedia: boolean
  fromMe: boolean
  isGroup: boolean
  /** Group sender (Switchboard addition). */
  participant?: string
  /** Sender's display name when known (Switchboard addition). */
  pushName?: string
  /** Id of the message this one replies to (Switchboard addition). */
  quotedMessageId?: string
}
export type MessageEvent = Base<'message', string> & { message: ReceivedMessagePayload }

export type MessageStatusEvent = Base<'message_status', string> & {
  statusUpdate: { messageId: string; chatId: string; status: 'pending' | 'sent' | 'delivered' | 'read'; timestamp: number }
}
export type MessageReactionEvent = Base<'message_reaction', number> & {
  messageId: string
  chatId: string
  from: string
  reaction: string
}
export type MessageRevokeEvent = Base<'message_revoke_everyone', number> & {
  messageId: string
  chatId: string
  fromMe: boolean
}
export type GroupJoinEvent = Base<'group_join', number> & { groupId: string; action: 'add'; participants: string[] }
export type GroupLeaveEvent = Base<'group_leave', number> & { groupId: string; action: 'remove'; participants: string[] }
export type GroupUpdateEvent = Base<'group_update', number> & {
  groupId: string
  updates: { subject?: string; desc?: string; announce?: boolean }
}
export type CallEvent = Base<'call', number> & {
  callId: string
  from: string
  status: 'offer' | 'accept' | 'reject' | 'timeout'
  isVideo: boolean
  isGroup: boolean
}
export type ScheduledSentEvent = Base<'message.sent', string> & {
  scheduledId: string
  status: 'success'
  result: { messageId: string; to: string }
}
export type ScheduledFailedEvent = Base<'message.failed', string> & {
  scheduledId: string
  status: 'failed'
  error: string
}

export interface GatewayEvents {
  qr_ready: QrReadyEvent
  authenticated: AuthenticatedEvent
  ready: ReadyEvent
  disconnected: DisconnectedEvent
  logged_out: LoggedOutEvent
  message: MessageEvent
  message_status: MessageStatusEvent
  message_reaction: MessageReactionEvent
  message_revoke_everyone: MessageRevokeEvent
  group_join: GroupJoinEvent
  group_leave: GroupLeaveEvent
  group_update: GroupUpdateEvent
  call: CallEvent
  'message.sent': ScheduledSentEvent
  'message.failed': ScheduledFailedEvent
}

export type GatewayEventName = keyof GatewayEvents
export type GatewayEvent = GatewayEvents[GatewayEventName]

/** Every event name, in the spec's order (for docs and for webhook filters). */
export const GATEWAY_EVENT_NAMES = [
  'qr_ready',
  'authenticated',
  'ready',
  'disconnected',
  'logged_out',
  'message',
  'message_status',
  'message_reaction',
  'message_revoke_everyone',
  'group_join',
  'group_leave',
  'group_update',
  'call',
  'message.sent',
  'message.failed',
] as const satisfies readonly GatewayEventName[]
