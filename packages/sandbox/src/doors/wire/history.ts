/**
 * The history-sync bootstrap an account's phone sends a newly linked companion. Baileys waits for
 * it (up to 20 s) before going online on a first link; an empty INITIAL_BOOTSTRAP, inline, ends
 * that wait at once and carries the account's push name.
 * @module
 */
import { promisify } from 'node:util'
import { deflate } from 'node:zlib'
import { proto } from '@whiskeysockets/baileys'
import type { WireAccount } from './wire-world.js'

const deflateAsync = promisify(deflate)

export async function historyBootstrap(account: WireAccount, nowSec: number): Promise<proto.IMessage> {
  const sync = proto.HistorySync.encode({
    syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
    conversations: [],
    pushnames: [],
    progress: 100,
    chunkOrder: 0,
  }).finish()
  return {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
      historySyncNotification: {
        syncType: proto.Message.HistorySyncType.INITIAL_BOOTSTRAP,
        initialHistBootstrapInlinePayload: await deflateAsync(sync),
        progress: 100,
        chunkOrder: 0,
        originalMessageId: `${account.phone}-${nowSec}`,
      },
    },
  }
}
