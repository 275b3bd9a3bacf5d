/**
 * Operations on one message: react, edit, delete for everyone, pin/unpin, star. Keys come from the
 * recorded `raw` when the gateway has it (it keeps the LID addressing the message was sent with).
 * @module
 */
import { isJidGroup, proto } from '@whiskeysockets/baileys'
import { GatewayError } from '../../errors/index.js'
import type { MessageOp, MessageOpResults, OpOf } from '../operations.js'
import type { MessageRef } from '../types.js'
import { keyOf } from './content.js'
import { translated } from './errors.js'
import type { BaileysSocket } from './socket.js'

/** WhatsApp offers these pin durations only (24 h, 7 d, 30 d). */
export const PIN_DURATIONS_SEC = [86_400, 604_800, 2_592_000] as const

/** The shortest allowed duration that covers the one asked for (30 d at most). */
export function pinDuration(durationSec: number): number {
  return PIN_DURATIONS_SEC.find((d) => d >= durationSec) ?? PIN_DURATIONS_SEC[PIN_DURATIONS_SEC.length - 1]!
}

const chatOf = (ref: MessageRef): string => keyOf(ref).remoteJid ?? ref.chatId

export async function runMessageOp<K extends MessageOp['op']>(
  sock: BaileysSocket,
  op: OpOf<MessageOp, K>,
): Promise<MessageOpResults[K]> {
  await messageOp(sock, op as MessageOp)
  return undefined as MessageOpResults[K]
}

async function messageOp(sock: BaileysSocket, op: MessageOp): Promise<void> {
  const ref = op.message
  const key = keyOf(ref)
  const jid = chatOf(ref)
  switch (op.op) {
    case 'react':
      await translated('message', () => sock.sendMessage(jid, { react: { text: op.emoji, key } }))
      break
    case 'edit':
      if (!ref.fromMe) throw new GatewayError('MESSAGE_NOT_EDITABLE')
      await translated('message', () => sock.sendMessage(jid, { text: op.text, edit: key }))
      break
    case 'revoke':
      // Others' messages can only be deleted by a group admin.
      if (!ref.fromMe && !isJidGroup(jid)) throw new GatewayError('MESSAGE_NOT_DELETABLE')
      await translated('message', () => sock.sendMessage(jid, { delete: key }))
      break
    case 'pin':
      await translated('message', () =>
        sock.sendMessage(jid, { pin: key, type: proto.PinInChat.Type.PIN_FOR_ALL, time: pinDuration(op.durationSec) as 86400 }),
      )
      break
    case 'unpin':
      await translated('message', () => sock.sendMessage(jid, { pin: key, type: proto.PinInChat.Type.UNPIN_FOR_ALL }))
      break
    case 'star':
      // Baileys builds the patch index from the first message only: one message per call.
      await translated('message', () => sock.star(jid, [{ id: ref.id, fromMe: ref.fromMe }], op.star))
      break
  }
}
