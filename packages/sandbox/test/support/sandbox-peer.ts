/**
 * A driver-contract peer ("the other side of the network") played by a sandbox account, shared by
 * the in-process and the wire harnesses.
 */
import type { HarnessPeer } from '@switchboard/core/testing'
import type { Sandbox } from '../../src/sandbox-api.js'

/** `sandbox` is read at each call: a harness may replace it on restart. */
export function sandboxPeer(sandbox: () => Sandbox, phone: string): HarnessPeer {
  return {
    phone,
    jid: `${phone}@s.whatsapp.net`,
    send: async (to, text, options) =>
      (await sandbox().sendAs(phone, { to, text, ...(options?.quotedMessageId ? { quotedMessageId: options.quotedMessageId } : {}) }))
        .messageId,
    inbox: async () =>
      (await sandbox().inbox(phone)).map((m) => ({
        id: m.id,
        chatId: m.chatId,
        from: m.from,
        status: m.status,
        ...(m.text === undefined ? {} : { text: m.text }),
        ...(m.quotedMessageId === undefined ? {} : { quotedMessageId: m.quotedMessageId }),
        ...(m.edited ? { edited: true } : {}),
        ...(m.revoked ? { revoked: true } : {}),
        ...(m.reactions ? { reactions: m.reactions } : {}),
      })),
    read: (chatId, ids) => sandbox().read(phone, chatId, ids),
    react: (chatId, messageId, emoji) => sandbox().react(phone, { chatId, messageId, emoji }),
    presences: async () => (await sandbox().presence(phone)).map((p) => ({ from: p.from, state: p.state })),
  }
}
