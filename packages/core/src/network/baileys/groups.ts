/**
 * Group operations and the short-lived group metadata cache Baileys reads through
 * `cachedGroupMetadata` (without it every group send queries the metadata first). Group events
 * invalidate entries; the TTL keeps a missed event from leaving a stale member list for long.
 * @module
 */
import type { GroupMetadata, GroupParticipant as BaileysParticipant } from '@whiskeysockets/baileys'
import type { Clock } from '../../kernel/clock.js'
import { GatewayError } from '../../errors/index.js'
import type { GroupOp, GroupOpResults, OpOf } from '../operations.js'
import type { GroupInfo, GroupParticipant, ParticipantResult } from '../types.js'
import { translated } from './errors.js'
import type { IdentityTable } from './identity.js'
import type { BaileysSocket } from './socket.js'

export const GROUP_CACHE_TTL_MS = 5 * 60_000

export class GroupCache {
  readonly #entries = new Map<string, { metadata: GroupMetadata; at: number }>()

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = GROUP_CACHE_TTL_MS,
  ) {}

  /** For `cachedGroupMetadata`: fresh metadata or undefined. */
  get(jid: string): GroupMetadata | undefined {
    const entry = this.#entries.get(jid)
    if (!entry) return undefined
    if (this.clock.now() - entry.at >= this.ttlMs) {
      this.#entries.delete(jid)
      return undefined
    }
    return entry.metadata
  }

  set(metadata: GroupMetadata): void {
    this.#entries.set(metadata.id, { metadata, at: this.clock.now() })
  }

  invalidate(jid: string): void {
    this.#entries.delete(jid)
  }
}

/** Participants as objects (v7): the PN is in `phoneNumber` when `id` is a LID. */
export async function learnParticipants(identity: IdentityTable, participants: BaileysParticipant[]): Promise<void> {
  await identity.learn(
    participants.flatMap((p) => [
      { lid: p.id, pn: p.phoneNumber ?? null },
      { lid: p.lid ?? null, pn: p.id },
    ]),
  )
}

async function toParticipant(identity: IdentityTable, p: BaileysParticipant): Promise<GroupParticipant> {
  const resolved = await identity.resolve(p.id, p.phoneNumber ?? p.lid)
  const admin = p.admin === 'superadmin' || p.admin === 'admin' ? p.admin : p.isSuperAdmin ? 'superadmin' : p.isAdmin ? 'admin' : null
  const out: GroupParticipant = { id: resolved?.jid ?? p.id, admin }
  if (resolved?.lid !== undefined) out.lid = resolved.lid
  return out
}

export async function toGroupInfo(identity: IdentityTable, metadata: GroupMetadata): Promise<GroupInfo> {
  await learnParticipants(identity, metadata.participants ?? [])
  const owner = metadata.ownerPn ?? (metadata.owner ? (await identity.resolve(metadata.owner))?.jid : undefined)
  const info: GroupInfo = {
    id: metadata.id,
    name: metadata.subject ?? '',
    description: metadata.desc ?? null,
    owner: owner ?? null,
    participants: await Promise.all((metadata.participants ?? []).map((p) => toParticipant(identity, p))),
  }
  if (metadata.announce !== undefined) info.announce = metadata.announce
  return info
}

/** WhatsApp's per-participant error codes, in the port's words. */
export function participantStatus(code: string, action: string): string {
  switch (code) {
    case '200':
      return 'success'
    case '401':
    case '403':
      return 'not-authorized'
    case '404':
      return action === 'add' ? 'not-registered' : 'not-in-group'
    case '408':
      return 'recently-left'
    case '409':
      return action === 'add' ? 'already-in-group' : 'conflict'
    default:
      return `error-${code}`
  }
}

export interface GroupDeps {
  sock: BaileysSocket
  identity: IdentityTable
  cache: GroupCache
}

export async function runGroupOp<K extends GroupOp['op']>(deps: GroupDeps, op: OpOf<GroupOp, K>): Promise<GroupOpResults[K]> {
  return (await translated('group', () => groupOp(deps, op as GroupOp))) as GroupOpResults[K]
}

async function groupOp(deps: GroupDeps, op: GroupOp): Promise<unknown> {
  const { sock, identity, cache } = deps
  {
    switch (op.op) {
      case 'create': {
        const metadata = await sock.groupCreate(op.name, op.participants)
        cache.set(metadata)
        return toGroupInfo(identity, metadata)
      }
      case 'metadata': {
        const metadata = cache.get(op.groupId) ?? (await sock.groupMetadata(op.groupId))
        cache.set(metadata)
        return toGroupInfo(identity, metadata)
      }
      case 'subject':
        await sock.groupUpdateSubject(op.groupId, op.name)
        cache.invalidate(op.groupId)
        return undefined
      case 'description':
        await sock.groupUpdateDescription(op.groupId, op.description === '' ? undefined : op.description)
        cache.invalidate(op.groupId)
        return undefined
      case 'participants': {
        const answers = await sock.groupParticipantsUpdate(op.groupId, op.participants, op.action)
        cache.invalidate(op.groupId)
        const results: ParticipantResult[] = []
        for (const [index, answer] of answers.entries()) {
          const jid = (await identity.resolve(answer.jid))?.jid ?? op.participants[index] ?? answer.jid ?? ''
          results.push({ jid, status: participantStatus(answer.status, op.action) })
        }
        return results
      }
      case 'inviteCode':
      case 'revokeInvite': {
        const code = op.op === 'inviteCode' ? await sock.groupInviteCode(op.groupId) : await sock.groupRevokeInvite(op.groupId)
        if (!code) throw new GatewayError('GROUP_NOT_FOUND')
        return code
      }
      case 'leave':
        await sock.groupLeave(op.groupId)
        cache.invalidate(op.groupId)
        return undefined
    }
  }
}
