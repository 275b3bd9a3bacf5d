/**
 * App state (WhatsApp's encrypted sync of chat settings between one account's devices). Each
 * account's phone shares one app-state key with its companions; a companion's patch
 * (`w:sync:app:state` with `<patch>`) is decoded with that key into settings for the world, and
 * kept, so the account's other devices receive it when they sync.
 * @module
 */
import { randomBytes } from 'node:crypto'
import { decodeSyncdPatch, newLTHashState, proto } from '@whiskeysockets/baileys'
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { toWireDevice } from './devices.js'
import { bytesOf, child, children, iqError, iqResult, node, type BinaryNode } from './nodes.js'
import type { WireSetting } from './wire-world.js'

interface AppStateKey {
  keyId: Buffer
  keyData: Buffer
  timestamp: number
}

interface Collection {
  version: number
  patches: { version: number; bytes: Buffer }[]
}

/** The account's app-state key (made on first use, kept in the emulator state). */
export async function appStateKey(em: WaEmulator, phone: string): Promise<AppStateKey> {
  const existing = await em.state.get<AppStateKey>(`appkey:${phone}`)
  if (existing) return { keyId: Buffer.from(existing.keyId), keyData: Buffer.from(existing.keyData), timestamp: existing.timestamp }
  const key: AppStateKey = { keyId: randomBytes(6), keyData: randomBytes(32), timestamp: em.clock.now() }
  await em.state.set(`appkey:${phone}`, key)
  return key
}

/** The protocol message a phone sends its new companion with the account's app-state key. */
export function keyShareMessage(key: AppStateKey): proto.IMessage {
  return {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.APP_STATE_SYNC_KEY_SHARE,
      appStateSyncKeyShare: {
        keys: [
          {
            keyId: { keyId: key.keyId },
            keyData: { keyData: key.keyData, fingerprint: { rawId: 1, currentIndex: 0, deviceIndexes: [0] }, timestamp: key.timestamp },
          },
        ],
      },
    },
  }
}

/** Answers `w:sync:app:state`: stores and applies uploaded patches, returns newer ones. */
export async function answerAppState(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const me = await em.deviceOf(conn)
  if (!me) return iqError(iq, 401, 'not-authorized')
  const out: BinaryNode[] = []
  for (const c of children(child(iq, 'sync'), 'collection')) {
    const name = c.attrs.name ?? ''
    const asked = Number(c.attrs.version ?? 0)
    const key = `appstate:${me.account.phone}:${name}`
    const stored = (await em.state.get<Collection>(key)) ?? { version: 0, patches: [] }
    const patch = bytesOf(child(c, 'patch'))
    if (patch) {
      const version = asked + 1
      const settings = await decodePatch(em, me.account.phone, name, patch)
      for (const setting of settings) await em.world.apply?.(toWireDevice(me.device), setting)
      stored.patches.push({ version, bytes: patch })
      stored.version = Math.max(stored.version, version)
      await em.state.set(key, stored)
      out.push(node('collection', { name, version: String(version) }))
      continue
    }
    const newer = stored.patches.filter((p) => p.version > asked)
    out.push(
      node(
        'collection',
        { name, version: String(Math.max(asked, stored.version)) },
        newer.length ? [node('patches', {}, newer.map((p) => node('patch', {}, Buffer.from(p.bytes))))] : undefined,
      ),
    )
  }
  return iqResult(iq, [node('sync', {}, out)])
}

/** The settings a patch carries, decoded with the account's key (MACs are the client's business). */
async function decodePatch(em: WaEmulator, phone: string, collection: string, bytes: Buffer): Promise<WireSetting[]> {
  const key = await appStateKey(em, phone)
  const keyId = key.keyId.toString('base64')
  const settings: WireSetting[] = []
  await decodeSyncdPatch(
    proto.SyncdPatch.decode(bytes),
    collection as never,
    newLTHashState(),
    async (id: string) => (id === keyId ? proto.Message.AppStateSyncKeyData.fromObject({ keyData: key.keyData }) : undefined),
    (mutation: { syncAction: proto.ISyncActionData; index: string[] }) => {
      const setting = settingOf(mutation.index, mutation.syncAction.value ?? {})
      if (setting) settings.push(setting)
    },
    false,
  )
  return settings
}

function settingOf(index: string[], value: proto.ISyncActionValue): WireSetting | undefined {
  const [type, chat = '', id = '', fromMe] = index
  if (value.pushNameSetting?.name) return { kind: 'name', name: value.pushNameSetting.name }
  if (value.archiveChatAction) return { kind: 'archive', chat, archived: value.archiveChatAction.archived === true }
  if (value.markChatAsReadAction && value.markChatAsReadAction.read === false) return { kind: 'markUnread', chat }
  if (value.deleteChatAction || type === 'deleteChat') return { kind: 'deleteChat', chat }
  if (value.starAction) return { kind: 'star', chat, id, fromMe: fromMe === '1', starred: value.starAction.starred === true }
  return undefined
}
