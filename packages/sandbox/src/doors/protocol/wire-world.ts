/**
 * The narrow port between the WhatsApp-protocol engine and the world it serves. The engine plays
 * WhatsApp's servers and every account's phone; the world owns accounts, links, groups and
 * messages. A linked Baileys client (a *device*) talks to the engine; the engine decodes what it
 * does (the emulated phones decrypt it) and hands it to the world as a {@link WireEvent}; the
 * world applies it and calls the engine's `deliver*` methods for whatever reaches devices.
 *
 * Message content crosses this port as WhatsApp's own protobuf (`proto.IMessage`): the engine is
 * about the protocol, the world adapter about meaning.
 * @module
 */
import type { proto } from '@whiskeysockets/baileys'

/** An account (a simulated phone) as the wire sees it. */
export interface WireAccount {
  /** Digits with country code, e.g. `15550001111`. */
  phone: string
  /** Digits of the account's LID user (`<lid>@lid`), stable for the account's life. */
  lid: string
  name: string
  about?: string | null
}

/** A companion device linked to an account through the wire (one Baileys client). */
export interface WireDevice {
  phone: string
  /** Companion device number (1, 2, …): the `:N` in `15550001111:N@s.whatsapp.net`. */
  deviceId: number
  /** A caller-chosen tag given at scan time (the sandbox uses the gateway session id). */
  label?: string
  /** The platform the companion announced (e.g. `Chrome (Mac OS)`). */
  platform?: string
}

export type WireReceiptStatus = 'delivered' | 'read' | 'played'

export type WireChatState = 'composing' | 'recording' | 'paused'

/** What a linked device did, already decrypted. */
export type WireEvent =
  | {
      type: 'message'
      device: WireDevice
      /** A PN JID (1:1) or a group JID. */
      to: string
      id: string
      timestampSec: number
      message: proto.IMessage
    }
  | {
      type: 'receipt'
      device: WireDevice
      /** The chat: the sender's PN JID (1:1) or the group JID. */
      chat: string
      /** In groups, the phone of the message's sender. */
      participant?: string
      ids: string[]
      status: WireReceiptStatus
    }
  | { type: 'presence'; device: WireDevice; available: boolean }
  | { type: 'chatstate'; device: WireDevice; to: string; state: WireChatState }

/** A group as the wire sees it. */
export interface WireGroup {
  /** `<id>@g.us`. */
  jid: string
  subject: string
  description: string | null
  /** Phone of the creator. */
  owner: string
  creationSec: number
  participants: { phone: string; admin: 'superadmin' | 'admin' | null }[]
  announce: boolean
}

export type WireParticipantAction = 'add' | 'remove' | 'promote' | 'demote'

/** Group operations a device can ask for; every method acts as `by` (a phone). */
export interface WireGroups {
  create(by: string, subject: string, participants: string[]): Promise<WireGroup>
  get(jid: string): Promise<WireGroup | undefined>
  ofMember(phone: string): Promise<WireGroup[]>
  setSubject(by: string, jid: string, subject: string): Promise<void>
  setDescription(by: string, jid: string, description: string | null): Promise<void>
  /** Returns one status per phone: `200`, or an error code such as `403`, `404`, `409`. */
  participants(
    by: string,
    jid: string,
    action: WireParticipantAction,
    phones: string[],
  ): Promise<{ phone: string; status: string }[]>
  inviteCode(by: string, jid: string, revoke: boolean): Promise<string>
  leave(by: string, jid: string): Promise<void>
}

/** Everything the engine needs from the world. */
export interface WireWorld {
  account(phone: string): Promise<WireAccount | undefined>
  accountByLid(lid: string): Promise<WireAccount | undefined>
  /** A device finished linking (after the pair-device-sign). */
  linked(device: WireDevice): Promise<void>
  /** A device is gone: logged out by the client, or unlinked from the phone. */
  unlinked(device: WireDevice, reason: 'logout' | 'unlink'): Promise<void>
  /** A device sent something; the world applies it and routes it back through `deliver*`. */
  receive(event: WireEvent): Promise<void>
  /** Whether an account is online now (answers presence subscriptions); offline when absent. */
  presenceOf?(phone: string): Promise<{ available: boolean; lastSeenSec?: number }>
  /** Groups, when the world has them (group IQs answer `501` otherwise). */
  readonly groups?: WireGroups
}
