/**
 * Group messages from companions, with sender keys: the companion sends its sender key to every
 * member's phone (Signal 1:1, `<participants>`) and the message once, encrypted with that key
 * (`skmsg`). The phones keep the keys; the sender's own phone, which always gets one, reads the
 * message for the world.
 * @module
 */
import { proto, unpadRandomMax16 } from '@whiskeysockets/baileys'
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { toWireDevice, type DeviceRecord } from './devices.js'
import { decodeJid, pnJid } from './jids.js'
import { bytesOf, child, children, type BinaryNode } from './nodes.js'
import type { WireAccount } from './wire-world.js'

export async function handleGroupMessage(
  em: WaEmulator,
  _conn: WireConnection,
  me: { account: WireAccount; device: DeviceRecord },
  stanza: BinaryNode,
): Promise<void> {
  const group = stanza.attrs.to!
  const id = stanza.attrs.id!
  // The name the companion gives its sender key: its own device JID in `pn` addressing mode.
  const author = pnJid(me.account.phone, me.device.deviceId)
  const sender = { lid: me.account.lid, deviceId: me.device.deviceId }
  const holders: string[] = []
  for (const target of children(child(stanza, 'participants'), 'to')) {
    const decoded = decodeJid(target.attrs.jid)
    const enc = child(target, 'enc')
    const account = await em.accountOfJid(target.attrs.jid)
    if (!decoded || decoded.device !== 0 || !account || !enc) continue
    const phone = await em.phones.get(account.phone)
    const distribution = (await em.decryptFrom(phone, sender, enc))?.senderKeyDistributionMessage
    if (distribution?.axolotlSenderKeyDistributionMessage) {
      await phone.processSenderKey(author, distribution.groupId ?? group, distribution.axolotlSenderKeyDistributionMessage)
      holders.push(account.phone)
    }
  }
  const skmsg = children(stanza, 'enc').find((e) => e.attrs.type === 'skmsg')
  const ciphertext = bytesOf(skmsg)
  if (!ciphertext) return
  // The sender's own phone always holds the key (companions list it as a recipient); others may too.
  const readers = [me.account.phone, ...holders.filter((p) => p !== me.account.phone)]
  let message: proto.IMessage | undefined
  for (const reader of readers) {
    try {
      const plain = await (await em.phones.get(reader)).decryptGroup(group, author, ciphertext)
      message = proto.Message.decode(unpadRandomMax16(plain))
      break
    } catch {
      // This phone has no key for the sender yet; try the next.
    }
  }
  if (!message) {
    em.logger.warn({ group, id, author }, 'no phone could read a group message')
    return
  }
  await em.world.receive({
    type: 'message',
    device: toWireDevice(me.device),
    to: group,
    id,
    timestampSec: em.nowSec(),
    message,
  })
}
