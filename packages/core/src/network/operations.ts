/**
 * The operations a driver performs besides sending, as tagged unions with a typed result per
 * operation. Keeping them as data keeps the port small (the opposite of a 90-method base class)
 * and lets one contract suite drive every driver.
 * @module
 */
import type {
  AboutInfo,
  GroupInfo,
  Jid,
  MediaPayload,
  MessageRef,
  NumberCheck,
  ParticipantResult,
  PresenceState,
  ProfileInfo,
} from './types.js'

export type MessageOp =
  | { op: 'react'; message: MessageRef; emoji: string }
  | { op: 'edit'; message: MessageRef; text: string }
  | { op: 'revoke'; message: MessageRef }
  | { op: 'pin'; message: MessageRef; durationSec: number }
  | { op: 'unpin'; message: MessageRef }
  | { op: 'star'; message: MessageRef; star: boolean }

export interface MessageOpResults {
  react: void
  edit: void
  revoke: void
  pin: void
  unpin: void
  star: void
}

export type ChatOp =
  | { op: 'archive'; chatId: Jid; lastMessages: MessageRef[] }
  | { op: 'unarchive'; chatId: Jid; lastMessages: MessageRef[] }
  | { op: 'markUnread'; chatId: Jid; lastMessages: MessageRef[] }
  | { op: 'delete'; chatId: Jid; lastMessages: MessageRef[] }
  | { op: 'presence'; chatId: Jid; state: PresenceState }
  | { op: 'read'; chatId: Jid; messages: MessageRef[] }

export interface ChatOpResults {
  archive: void
  unarchive: void
  markUnread: void
  delete: void
  presence: void
  read: void
}

export type GroupOp =
  | { op: 'create'; name: string; participants: Jid[] }
  | { op: 'metadata'; groupId: Jid }
  | { op: 'subject'; groupId: Jid; name: string }
  | { op: 'description'; groupId: Jid; description: string }
  | { op: 'participants'; groupId: Jid; action: 'add' | 'remove' | 'promote' | 'demote'; participants: Jid[] }
  | { op: 'inviteCode'; groupId: Jid }
  | { op: 'revokeInvite'; groupId: Jid }
  | { op: 'leave'; groupId: Jid }

export interface GroupOpResults {
  create: GroupInfo
  metadata: GroupInfo
  subject: void
  description: void
  participants: ParticipantResult[]
  /** The invite code (the link is `https://chat.whatsapp.com/<code>`). */
  inviteCode: string
  /** The new invite code. */
  revokeInvite: string
  leave: void
}

export type ProfileOp =
  | { op: 'get' }
  | { op: 'setName'; name: string }
  | { op: 'setStatus'; status: string }
  | { op: 'setPicture'; image: MediaPayload }
  | { op: 'removePicture' }

export interface ProfileOpResults {
  get: ProfileInfo
  setName: void
  setStatus: void
  setPicture: void
  removePicture: void
}

export type ContactOp =
  | { op: 'block'; jid: Jid }
  | { op: 'unblock'; jid: Jid }
  | { op: 'picture'; jid: Jid }
  | { op: 'about'; jid: Jid }
  | { op: 'check'; phones: string[] }

export interface ContactOpResults {
  block: void
  unblock: void
  /** URL, or null when there is none or it is hidden. */
  picture: string | null
  about: AboutInfo
  check: NumberCheck[]
}

/** Picks the member of a tagged union by its `op`. */
export type OpOf<U extends { op: string }, K extends U['op']> = Extract<U, { op: K }>
