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
  /** Phone of the owner (null once the creator left). */
  owner: string | null
  creationSec: number
  participants: { phone: string; admin: 'superadmin' | 'admin' | null }[]
  announce: boolean
}

export type WireParticipantAction = 'add' | 'remove' | 'promote' | 'demote'

/** Group operations a device can ask for; every method acts as the account of `by`. */
export interface WireGroups {
  create(by: WireDevice, subject: string, participants: string[]): Promise<WireGroup>
  /** The group as `by` sees it; undefined when it does not exist or `by` is not a member. */
  get(by: WireDevice, jid: string): Promise<WireGroup | undefined>
  ofMember(by: WireDevice): Promise<WireGroup[]>
  setSubject(by: WireDevice, jid: string, subject: string): Promise<void>
  setDescription(by: WireDevice, jid: string, description: string | null): Promise<void>
  /** Returns one status per phone: `200`, or an error code such as `403`, `404`, `409`. */
  participants(
    by: WireDevice,
    jid: string,
    action: WireParticipantAction,
    phones: string[],
  ): Promise<{ phone: string; status: string }[]>
  inviteCode(by: WireDevice, jid: string, revoke: boolean): Promise<string>
  leave(by: WireDevice, jid: string): Promise<void>
}

/** An account approved a companion (scanned its QR or typed its code). */
export interface LinkRequest {
  phone: string
  method: 'qr' | 'code'
  /** The QR payload scanned (QR links). */
  qr?: string
  /** The code typed (code links). */
  code?: string
  /** What the companion announced (e.g. `CHROME (Mac OS)`). */
  platform: string
  /** A label the caller asked for (the world may choose its own). */
  label?: string
}

/**
 * Something a device changed about its own account: its profile (IQs), its blocks (IQs) or its
 * chat settings (app-state patches, decoded by the account's phone).
 */
export type WireSetting =
  | { kind: 'name'; name: string }
  | { kind: 'about'; about: string }
  | { kind: 'archive'; chat: string; archived: boolean }
  | { kind: 'markUnread'; chat: string }
  | { kind: 'deleteChat'; chat: string }
  | { kind: 'star'; chat: string; id: string; fromMe: boolean; starred: boolean }
  | { kind: 'block'; jid: string; blocked: boolean }

/** Everything the engine needs from the world. */
export interface WireWorld {
  account(phone: string): Promise<WireAccount | undefined>
  accountByLid(lid: string): Promise<WireAccount | undefined>
  /**
   * Records a new linked device and names it: its device number and label (errors such as
   * `Invalid or expired QR code` reach the caller of the scan).
   */
  link(request: LinkRequest): Promise<WireDevice>
  /** A device is gone: logged out by the client, unlinked from the phone, or never finished linking. */
  unlinked(device: WireDevice, reason: 'logout' | 'unlink' | 'failed'): Promise<void>
  /** A linked device logged in; false when the world no longer knows the link (it is then refused, 401). */
  online?(device: WireDevice): Promise<boolean>
  /** A logged-in device's socket closed. */
  offline?(device: WireDevice): Promise<void>
  /** A device sent something; the world applies it and routes it back through `deliver*`. */
  receive(event: WireEvent): Promise<void>
  /** Whether an account is online now (answers presence subscriptions); offline when absent. */
  presenceOf?(phone: string): Promise<{ available: boolean; lastSeenSec?: number }>
  /** Applies a device's change to its account (IQs answer `501` for settings when absent). */
  apply?(device: WireDevice, setting: WireSetting): Promise<void>
  /** The picture URL of `jid` as the device's account may see it; null when none or hidden. */
  pictureOf?(device: WireDevice, jid: string): Promise<string | null>
  /** Groups, when the world has them (group IQs answer `501` otherwise). */
  readonly groups?: WireGroups
}
