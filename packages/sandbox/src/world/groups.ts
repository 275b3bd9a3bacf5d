/**
 * Groups with WhatsApp's membership rules: the creator is the owner (`superadmin`); only admins
 * change participants and see or reset the invite link; any member may rename or describe the
 * group; the owner cannot be removed or demoted by others; when the last admin leaves, the
 * longest-standing member becomes admin. Non-members get `Group not found`, as the network hides
 * groups from outsiders. Every member's devices hear of changes (the author's included).
 * @module
 */
import { GatewayError, isGroupJid, normalizeUserJid } from '@switchboard/core'
import type { GroupInfo, Jid, ParticipantResult } from '@switchboard/core'
import type { Accounts } from './accounts.js'
import type { WorldCore } from './core.js'
import { groupJid, inviteCode } from './ids.js'
import { notice } from './notices.js'
import type { GroupMember, GroupRecord } from './records.js'

export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote'

export class Groups {
  constructor(
    private readonly core: WorldCore,
    private readonly accounts: Accounts,
  ) {}

  /** Creates a group owned by `phone`; unregistered participants are left out. */
  create(phone: string, subject: string, participants: readonly Jid[], origin?: string): GroupInfo {
    this.core.requireAccount(phone)
    const now = this.core.now()
    const members = new Map<string, GroupMember>([[phone, { phone, admin: 'superadmin', joinedAtMs: now }]])
    for (const jid of participants) {
      const member = this.accounts.resolve(normalizeUserJid(jid))
      if (member !== undefined && !members.has(member)) members.set(member, { phone: member, admin: null, joinedAtMs: now })
    }
    const group: GroupRecord = {
      id: groupJid(this.core.newId, (jid) => this.core.state.groups.has(jid)),
      subject,
      description: null,
      owner: phone,
      createdAtMs: now,
      participants: [...members.values()],
      inviteCode: inviteCode(this.core.newId),
      announce: false,
    }
    this.#save(group)
    const added = group.participants.filter((m) => m.phone !== phone).map((m) => this.core.jidOf(m.phone))
    const timestampSec = this.core.nowSec()
    for (const member of group.participants) {
      this.core.toAccount(member.phone, notice('chats.upsert', { chats: [{ id: group.id, name: subject, timestampSec }] }), origin)
      if (added.length > 0) {
        this.core.toAccount(
          member.phone,
          notice('group.participants', { groupId: group.id, action: 'add', participants: added, author: this.core.jidOf(phone), timestampSec }),
          origin,
        )
      }
    }
    return this.info(group)
  }

  metadata(phone: string, groupId: Jid): GroupInfo {
    return this.info(this.#asMember(phone, groupId).group)
  }

  setSubject(phone: string, groupId: Jid, subject: string): void {
    const { group } = this.#asMember(phone, groupId)
    group.subject = subject
    this.#save(group)
    this.#announceUpdate(group, phone, { subject })
  }

  /** An empty description removes it. */
  setDescription(phone: string, groupId: Jid, description: string): void {
    const { group } = this.#asMember(phone, groupId)
    group.description = description === '' ? null : description
    this.#save(group)
    this.#announceUpdate(group, phone, { desc: description })
  }

  /** Admins only (`Only group admins can do this`); one result per JID, in order. */
  participants(phone: string, groupId: Jid, action: ParticipantAction, jids: readonly Jid[]): ParticipantResult[] {
    const { group, member: actor } = this.#asMember(phone, groupId)
    if (actor.admin === null) throw new GatewayError('GROUP_ADMIN_REQUIRED')
    const audience = new Set(group.participants.map((m) => m.phone))
    const results: ParticipantResult[] = []
    const changed: Jid[] = []
    for (const raw of jids) {
      const jid = normalizeUserJid(raw)
      const status = this.#apply(group, actor, action, jid)
      results.push({ jid, status })
      if (status === 'success') changed.push(jid)
    }
    if (changed.length === 0) return results
    this.#save(group)
    for (const m of group.participants) audience.add(m.phone)
    this.#announceParticipants(group, [...audience], action, changed, phone)
    return results
  }

  inviteCode(phone: string, groupId: Jid): string {
    return this.#asAdmin(phone, groupId).inviteCode
  }

  /** A new invite code; the old link stops working. */
  revokeInvite(phone: string, groupId: Jid): string {
    const group = this.#asAdmin(phone, groupId)
    group.inviteCode = inviteCode(this.core.newId)
    this.#save(group)
    return group.inviteCode
  }

  leave(phone: string, groupId: Jid): void {
    const { group } = this.#asMember(phone, groupId)
    const audience = group.participants.map((m) => m.phone)
    group.participants = group.participants.filter((m) => m.phone !== phone)
    if (group.owner === phone) group.owner = null
    this.#save(group)
    this.#announceParticipants(group, audience, 'remove', [this.core.jidOf(phone)], phone)
    const heir = group.participants[0]
    if (heir && !group.participants.some((m) => m.admin !== null)) {
      heir.admin = 'admin'
      this.#save(group)
      this.#announceParticipants(group, group.participants.map((m) => m.phone), 'promote', [this.core.jidOf(heir.phone)])
    }
  }

  /** Joins through an invite code (`Group not found` for an unknown or revoked code). */
  join(phone: string, code: string): GroupInfo {
    this.core.requireAccount(phone)
    const group = [...this.core.state.groups.values()].find((g) => g.inviteCode === code)
    if (!group) throw new GatewayError('GROUP_NOT_FOUND')
    if (!group.participants.some((m) => m.phone === phone)) {
      group.participants.push({ phone, admin: null, joinedAtMs: this.core.now() })
      this.#save(group)
      const jid = this.core.jidOf(phone)
      this.#announceParticipants(group, group.participants.map((m) => m.phone), 'add', [jid], phone)
    }
    return this.info(group)
  }

  /** Groups `phone` is a member of. */
  of(phone: string): GroupInfo[] {
    return [...this.core.state.groups.values()].filter((g) => g.participants.some((m) => m.phone === phone)).map((g) => this.info(g))
  }

  info(group: GroupRecord): GroupInfo {
    return {
      id: group.id,
      name: group.subject,
      description: group.description,
      owner: group.owner === null ? null : this.core.jidOf(group.owner),
      participants: group.participants.map((m) => ({
        id: this.core.jidOf(m.phone),
        admin: m.admin,
        ...(this.core.account(m.phone) ? { lid: this.core.account(m.phone)!.lid } : {}),
      })),
      announce: group.announce,
    }
  }

  #apply(group: GroupRecord, actor: GroupMember, action: ParticipantAction, jid: Jid): string {
    const phone = this.accounts.resolve(jid)
    const member = phone === undefined ? undefined : group.participants.find((m) => m.phone === phone)
    if (action === 'add') {
      if (phone === undefined) return 'not-registered'
      if (member) return 'already-in-group'
      group.participants.push({ phone, admin: null, joinedAtMs: this.core.now() })
      return 'success'
    }
    if (!member) return 'not-in-group'
    if (member.admin === 'superadmin' && actor.admin !== 'superadmin' && action !== 'promote') return 'not-authorized'
    if (action === 'remove') {
      group.participants = group.participants.filter((m) => m !== member)
      if (group.owner === member.phone) group.owner = null
    }
    else if (action === 'promote') member.admin = member.admin ?? 'admin'
    else if (member.admin === 'superadmin') return 'not-authorized'
    else member.admin = null
    return 'success'
  }

  #asMember(phone: string, groupId: Jid): { group: GroupRecord; member: GroupMember } {
    this.core.requireAccount(phone)
    if (!isGroupJid(groupId)) throw new GatewayError('INVALID_JID')
    const group = this.core.state.groups.get(groupId)
    const member = group?.participants.find((m) => m.phone === phone)
    if (!group || !member) throw new GatewayError('GROUP_NOT_FOUND')
    return { group, member }
  }

  #asAdmin(phone: string, groupId: Jid): GroupRecord {
    const { group, member } = this.#asMember(phone, groupId)
    if (member.admin === null) throw new GatewayError('GROUP_ADMIN_REQUIRED')
    return group
  }

  #save(group: GroupRecord): void {
    this.core.state.groups.set(group.id, group)
    this.core.touch('groups', group.id)
  }

  #announceUpdate(group: GroupRecord, author: string, updates: { subject?: string; desc?: string }): void {
    const payload = { groupId: group.id, updates, author: this.core.jidOf(author), timestampSec: this.core.nowSec() }
    for (const m of group.participants) this.core.toAccount(m.phone, notice('group.update', payload))
  }

  #announceParticipants(group: GroupRecord, audience: readonly string[], action: ParticipantAction, participants: Jid[], author?: string): void {
    const payload = {
      groupId: group.id,
      action,
      participants,
      ...(author === undefined ? {} : { author: this.core.jidOf(author) }),
      timestampSec: this.core.nowSec(),
    }
    for (const phone of audience) this.core.toAccount(phone, notice('group.participants', payload))
  }
}
