/**
 * Answers to a companion's IQs. Every IQ gets an answer at once (an empty `result` where nothing
 * better exists): an unanswered query makes Baileys wait out its 60-second timeout.
 * @module
 */
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { answerGroupIq } from './iq-groups.js'
import { answerUsync } from './usync.js'
import { decodeJid } from './jids.js'
import { bytesOf, child, children, iqError, iqResult, node, readUint, uintBytes, type BinaryNode } from './nodes.js'

const KEY_TYPE = Buffer.from([5])

export async function answerIq(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode | undefined> {
  const { xmlns, type } = iq.attrs
  if (type === 'result' || type === 'error') return undefined
  switch (xmlns) {
    case 'md':
      return answerMd(em, conn, iq)
    case 'encrypt':
      return answerEncrypt(em, conn, iq)
    case 'usync':
      return answerUsync(em, conn, iq)
    case 'w:g2':
      return answerGroupIq(em, conn, iq)
    case 'privacy':
      if (type === 'get' && child(iq, 'privacy')) {
        return iqResult(iq, [
          node(
            'privacy',
            {},
            Object.entries(PRIVACY).map(([name, value]) => node('category', { name, value })),
          ),
        ])
      }
      return iqResult(iq)
    case 'blocklist':
      return type === 'get' ? iqResult(iq, [node('list', {})]) : iqResult(iq)
    case 'abt':
      return iqResult(iq, [node('props', { protocol: '1', hash: 'sandbox' })])
    case 'w:sync:app:state':
      return answerAppState(iq)
    case 'w:profile:picture':
      return type === 'get' ? iqError(iq, 404, 'item-not-found') : iqResult(iq)
    default:
      return iqResult(iq)
  }
}

const PRIVACY: Record<string, string> = {
  readreceipts: 'all',
  last: 'all',
  online: 'all',
  profile: 'all',
  status: 'all',
  groupadd: 'all',
  calladd: 'all',
  messages: 'all',
}

async function answerMd(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const remove = child(iq, 'remove-companion-device')
  if (remove) {
    const me = await em.deviceOf(conn)
    if (me) await em.loggedOut(me.device.phone, me.device.deviceId)
    return iqResult(iq)
  }
  const linkCode = child(iq, 'link_code_companion_reg')
  if (linkCode?.attrs.stage === 'companion_hello') {
    const phone = decodeJid(linkCode.attrs.jid)?.user
    const wrapped = bytesOf(child(linkCode, 'link_code_pairing_wrapped_companion_ephemeral_pub'))
    if (!phone || !wrapped || wrapped.length < 80 || !em.registrationOf(conn)) return iqError(iq, 400, 'bad-request')
    em.companionHello(conn, { phone, wrappedEphemeral: wrapped, platform: bytesOf(child(linkCode, 'companion_platform_display'))?.toString() ?? '' })
    return iqResult(iq, [node('link_code_companion_reg', {}, [node('link_code_pairing_ref', {}, Buffer.from('sandbox'))])])
  }
  if (linkCode?.attrs.stage === 'companion_finish') {
    const bundle = bytesOf(child(linkCode, 'link_code_pairing_wrapped_key_bundle'))
    const resolve = conn.context.onCompanionFinish as ((b: Buffer) => void) | undefined
    if (bundle && resolve) {
      conn.context.onCompanionFinish = undefined
      resolve(bundle)
    }
    return iqResult(iq)
  }
  return iqResult(iq)
}

async function answerEncrypt(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const me = await em.deviceOf(conn)
  if (child(iq, 'count')) {
    return iqResult(iq, [node('count', { value: String(me?.device.preKeys.length ?? 0) })])
  }
  if (child(iq, 'digest')) {
    return iqResult(iq, [node('digest', {})])
  }
  const list = child(iq, 'list')
  if (iq.attrs.type === 'set' && list) {
    if (me) {
      const keys = children(list, 'key').map((k) => ({ id: readUint(bytesOf(child(k, 'id'))), public: bytesOf(child(k, 'value'))! }))
      const first = me.device.preKeys.length === 0 && !conn.context.uploadedOnce
      conn.context.uploadedOnce = true
      await em.preKeysUploaded(me.device.phone, me.device.deviceId, keys, first)
    }
    return iqResult(iq)
  }
  const key = child(iq, 'key')
  if (key) {
    const users: BinaryNode[] = []
    for (const user of children(key, 'user')) {
      const jid = user.attrs.jid
      const decoded = decodeJid(jid)
      const account = await em.accountOfJid(jid)
      if (!account || !decoded || decoded.device !== 0) {
        users.push(node('user', { jid }, [node('error', { code: '404', text: 'item-not-found' })]))
        continue
      }
      const b = (await em.phones.get(account.phone)).bundle()
      users.push(
        node('user', { jid }, [
          node('registration', {}, uintBytes(b.registrationId, 4)),
          node('type', {}, KEY_TYPE),
          node('identity', {}, Buffer.from(b.identity)),
          node('skey', {}, [
            node('id', {}, uintBytes(b.signedPreKey.id, 3)),
            node('value', {}, Buffer.from(b.signedPreKey.public)),
            node('signature', {}, Buffer.from(b.signedPreKey.signature)),
          ]),
        ]),
      )
    }
    return iqResult(iq, [node('list', {}, users)])
  }
  return iqResult(iq)
}

/** Every asked collection answered at its version with no patches: nothing to sync yet. */
function answerAppState(iq: BinaryNode): BinaryNode {
  const sync = child(iq, 'sync')
  const collections = children(sync, 'collection').map((c) =>
    node('collection', { name: c.attrs.name, version: c.attrs.version ?? '0' }),
  )
  return iqResult(iq, [node('sync', {}, collections)])
}
