/**
 * The driver port's operations (message, chat, group, profile, contact) applied to the world as
 * one account. The in-process door runs them for a linked session; the sandbox's controls run
 * them for an account's phone.
 * @module
 */
import type {
  ChatOp,
  ChatOpResults,
  ContactOp,
  ContactOpResults,
  GroupOp,
  GroupOpResults,
  MessageOp,
  MessageOpResults,
  ProfileOp,
  ProfileOpResults,
} from '@switchboard/core'
import type { World } from '../world/world.js'

/** Who acts: the account's phone, and the linked device it acts through (none from the phone itself). */
export interface Actor {
  phone: string
  origin?: string
}

export function runMessageOp(world: World, { phone, origin }: Actor, op: MessageOp): MessageOpResults[MessageOp['op']] {
  switch (op.op) {
    case 'react':
      return world.actions.react(phone, op.message, op.emoji, origin)
    case 'edit':
      return world.actions.edit(phone, op.message, op.text, origin)
    case 'revoke':
      return world.actions.revoke(phone, op.message, origin)
    case 'pin':
      return world.actions.pin(phone, op.message, op.durationSec)
    case 'unpin':
      return world.actions.unpin(phone, op.message)
    case 'star':
      return world.actions.star(phone, op.message, op.star)
  }
}

export function runChatOp(world: World, { phone, origin }: Actor, op: ChatOp): ChatOpResults[ChatOp['op']] {
  switch (op.op) {
    case 'archive':
      return world.chats.archive(phone, op.chatId, true)
    case 'unarchive':
      return world.chats.archive(phone, op.chatId, false)
    case 'markUnread':
      return world.chats.markUnread(phone, op.chatId)
    case 'delete':
      return world.chats.delete(phone, op.chatId)
    case 'presence':
      return world.chats.presence(phone, op.chatId, op.state)
    case 'read': {
      world.actions.read(phone, op.chatId, op.messages.map((m) => m.id), origin === undefined ? {} : { origin })
      return world.chats.markRead(phone, op.chatId)
    }
  }
}

export function runGroupOp(world: World, { phone, origin }: Actor, op: GroupOp): GroupOpResults[GroupOp['op']] {
  switch (op.op) {
    case 'create':
      return world.groups.create(phone, op.name, op.participants, origin)
    case 'metadata':
      return world.groups.metadata(phone, op.groupId)
    case 'subject':
      return world.groups.setSubject(phone, op.groupId, op.name)
    case 'description':
      return world.groups.setDescription(phone, op.groupId, op.description)
    case 'participants':
      return world.groups.participants(phone, op.groupId, op.action, op.participants)
    case 'inviteCode':
      return world.groups.inviteCode(phone, op.groupId)
    case 'revokeInvite':
      return world.groups.revokeInvite(phone, op.groupId)
    case 'leave':
      return world.groups.leave(phone, op.groupId)
  }
}

export function runProfileOp(world: World, { phone }: Actor, op: ProfileOp): ProfileOpResults[ProfileOp['op']] {
  switch (op.op) {
    case 'get':
      return world.accounts.profile(phone)
    case 'setName':
      return world.accounts.setName(phone, op.name)
    case 'setStatus':
      return world.accounts.setAbout(phone, op.status)
    case 'setPicture':
      return world.accounts.setPicture(phone, op.image)
    case 'removePicture':
      return world.accounts.removePicture(phone)
  }
}

export function runContactOp(world: World, { phone }: Actor, op: ContactOp): ContactOpResults[ContactOp['op']] {
  switch (op.op) {
    case 'block':
      return world.contacts.block(phone, op.jid)
    case 'unblock':
      return world.contacts.unblock(phone, op.jid)
    case 'picture':
      return world.contacts.picture(phone, op.jid)
    case 'about':
      return world.contacts.about(phone, op.jid)
    case 'check':
      return world.contacts.check(op.phones)
  }
}
