/**
 * Group IQs (`w:g2`): create, metadata, the groups one is in, subject, description,
 * participants, invite codes, leave. Groups are answered in `pn` addressing mode (participants
 * named by phone number, with their LID alongside), which is what the emulated phones use for
 * sender keys too.
 * @module
 */
import { isGatewayError } from '@switchboard/core'
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { toWireDevice } from './devices.js'
import { decodeJid, lidJid, pnJid } from './jids.js'
import { child, children, iqError, iqResult, node, textOf, type BinaryNode } from './nodes.js'
import type { WireAccount, WireGroup, WireParticipantAction } from './wire-world.js'

const ACTIONS: readonly WireParticipantAction[] = ['add', 'remove', 'promote', 'demote']

export async function answerGroupIq(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const groups = em.world.groups
  const me = await em.deviceOf(conn)
  if (!groups || !me) return iqError(iq, 501, 'feature-not-implemented')
  const by = toWireDevice(me.device)
  const target = iq.attrs.to ?? ''
  const first = children(iq)[0]
  if (!first) return iqResult(iq)
  try {
    switch (first.tag) {
      case 'create': {
        const phones = await phonesOf(em, children(first, 'participant').map((p) => p.attrs.jid))
        const group = await groups.create(by, first.attrs.subject ?? '', phones)
        return iqResult(iq, [await groupNode(em, group)])
      }
      case 'query': {
        const group = await groups.get(by, target)
        return group ? iqResult(iq, [await groupNode(em, group)]) : iqError(iq, 404, 'item-not-found')
      }
      case 'participating': {
        const list = await groups.ofMember(by)
        return iqResult(iq, [node('groups', {}, await Promise.all(list.map((g) => groupNode(em, g))))])
      }
      case 'subject':
        await groups.setSubject(by, target, textOf(first) ?? '')
        return iqResult(iq)
      case 'description':
        await groups.setDescription(by, target, first.attrs.delete === 'true' ? null : (textOf(child(first, 'body')) ?? ''))
        return iqResult(iq)
      case 'invite': {
        if (first.attrs.code) return iqError(iq, 501, 'feature-not-implemented')
        const code = await groups.inviteCode(by, target, iq.attrs.type === 'set')
        return iqResult(iq, [node('invite', { code })])
      }
      case 'leave': {
        for (const g of children(first, 'group')) if (g.attrs.id) await groups.leave(by, g.attrs.id)
        return iqResult(iq, [first])
      }
      default: {
        const action = ACTIONS.find((a) => a === first.tag)
        if (!action) return iqResult(iq)
        const jids = children(first, 'participant').map((p) => p.attrs.jid ?? '')
        const phones = await phonesOf(em, jids)
        const results = await groups.participants(by, target, action, phones)
        return iqResult(iq, [
          node(
            action,
            {},
            jids.map((jid, i) => {
              const status = results[i]?.status ?? '404'
              return node('participant', { jid, error: status === '200' ? undefined : status })
            }),
          ),
        ])
      }
    }
  } catch (err) {
    if (!isGatewayError(err)) throw err
    if (err.code === 'GROUP_NOT_FOUND') return iqError(iq, 404, 'item-not-found')
    if (err.code === 'GROUP_ADMIN_REQUIRED') return iqError(iq, 403, 'forbidden')
    return iqError(iq, 400, 'bad-request')
  }
}

/** Phones of user JIDs (PN or LID); unknown numbers keep their digits, for the world to refuse. */
async function phonesOf(em: WaEmulator, jids: (string | undefined)[]): Promise<string[]> {
  return Promise.all(
    jids.map(async (jid) => (await em.accountOfJid(jid))?.phone ?? decodeJid(jid)?.user ?? ''),
  )
}

/** A `<group>` node as Baileys' `extractGroupMetadata` reads it. */
export async function groupNode(em: WaEmulator, group: WireGroup): Promise<BinaryNode> {
  const accounts = new Map<string, WireAccount | undefined>()
  for (const p of group.participants) accounts.set(p.phone, await em.world.account(p.phone))
  const content: BinaryNode[] = group.participants.map((p) =>
    node('participant', {
      jid: pnJid(p.phone),
      lid: accounts.get(p.phone) ? lidJid(accounts.get(p.phone)!.lid) : undefined,
      type: p.admin ?? undefined,
    }),
  )
  if (group.description) {
    content.push(node('description', { id: 'sandbox', t: String(group.creationSec) }, [node('body', {}, Buffer.from(group.description))]))
  }
  if (group.announce) content.push(node('announcement', {}))
  const owner = group.owner ? pnJid(group.owner) : undefined
  return node(
    'group',
    {
      id: group.jid.replace(/@g\.us$/, ''),
      subject: group.subject,
      s_t: String(group.creationSec),
      s_o: owner,
      creation: String(group.creationSec),
      creator: owner,
      addressing_mode: 'pn',
      size: String(group.participants.length),
    },
    content,
  )
}
