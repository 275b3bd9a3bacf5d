/**
 * What the world tells a linked device. Notices have the payloads of the driver port's events
 * without the session id, so the in-process door forwards them as they are and the protocol door
 * encodes them as stanzas. A notice for a device that is offline waits in its queue.
 * @module
 */
import type { DriverEventName, DriverEvents } from '@switchboard/core'

export type NoticeName = Exclude<DriverEventName, 'connection.update'>

export type Notice = {
  [E in NoticeName]: { event: E; payload: Omit<DriverEvents[E], 'sessionId'> }
}[NoticeName]

/** A notice of one kind. */
export type NoticeOf<E extends NoticeName> = Extract<Notice, { event: E }>

/** Builds a notice with its payload type checked against the event name. */
export function notice<E extends NoticeName>(event: E, payload: Omit<DriverEvents[E], 'sessionId'>): NoticeOf<E> {
  return { event, payload } as unknown as NoticeOf<E>
}
