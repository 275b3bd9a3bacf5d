/**
 * The `usync` query: registered numbers (`contact`), device lists (`devices`), LIDs (`lid`),
 * about texts (`status`) and disappearing modes. Every account shows exactly one device, its
 * phone (device 0): companions talk to phones, and phones fan out to companions.
 * @module
 */
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { decodeJid, lidJid, pnJid } from './jids.js'
import { child, children, iqResult, node, textOf, type BinaryNode } from './nodes.js'
import type { WireAccount } from './wire-world.js'

export async function answerUsync(em: WaEmulator, _conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const usync = child(iq, 'usync')
  const protocols = children(child(usync, 'query')).map((p) => p.tag)
  const users: BinaryNode[] = []
  for (const user of children(child(usync, 'list'), 'user')) {
    const contact = child(user, 'contact')
    const phoneText = textOf(contact)
    let account: WireAccount | undefined
    let jid = user.attrs.jid
    if (!jid && phoneText) {
      const digits = phoneText.replace(/\D/g, '')
      account = await em.world.account(digits)
      jid = pnJid(digits)
    } else {
      account = await em.accountOfJid(jid)
    }
    if (!jid) continue
    const lidAsked = decodeJid(jid)?.server === 'lid'
    const parts: BinaryNode[] = []
    for (const protocol of protocols) {
      switch (protocol) {
        case 'contact':
          parts.push(node('contact', { type: account ? 'in' : 'out' }))
          break
        case 'devices':
          parts.push(
            node('devices', {}, [node('device-list', {}, account ? [node('device', { id: '0' })] : [])]),
          )
          break
        case 'lid':
          if (account && !lidAsked) parts.push(node('lid', { val: lidJid(account.lid) }))
          break
        case 'status':
          if (account) parts.push(node('status', { t: String(em.nowSec()) }, account.about ?? ''))
          break
        case 'disappearing_mode':
          parts.push(node('disappearing_mode', { duration: '0', t: '0' }))
          break
      }
    }
    users.push(node('user', { jid: account && !lidAsked ? pnJid(account.phone) : jid }, parts))
  }
  return iqResult(iq, [
    node('usync', { sid: usync?.attrs.sid, index: '0', last: 'true', mode: usync?.attrs.mode, context: usync?.attrs.context }, [
      node('result', {}, protocols.map((p) => node(p, {}))),
      node('list', {}, users),
    ]),
  ])
}
