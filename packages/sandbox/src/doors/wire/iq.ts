/**
 * Answers to a companion's IQs. Every IQ gets an answer at once (an empty `result` where nothing
 * better exists): an unanswered query makes Baileys wait out its 60-second timeout.
 * @module
 */
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { isGatewayError } from '@switchboard/core'
import { answerAppState } from './app-state.js'
import { toWireDevice } from './devices.js'
import { answerGroupIq } from './iq-groups.js'
import { answerUsync } from './usync.js'
import { decodeJid } from './jids.js'
import { bytesOf, child, children, iqError, iqResult, node, readUint, textOf, uintBytes, type BinaryNode } from './nodes.js'
import type { WireSetting } from './wire-world.js'

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
      return type === 'get' ? iqResult(iq, [node('list', {})]) : answerBlock(em, conn, iq)
    case 'abt':
      return iqResult(iq, [node('props', { protocol: '1', hash: 'sandbox' })])
    case 'w:sync:app:state':
      return answerAppState(em, conn, iq)
    case 'w:profile:picture':
      return type === 'get' ? answerPicture(em, conn, iq) : iqError(iq, 501, 'feature-not-implemented')
    case 'status':
      return answerAbout(em, conn, iq)
    case 'w:m':
      return em.media
        ? iqResult(iq, [
            node('media_conn', { auth: 'sandbox', ttl: '3600', auth_ttl: '3600', max_buckets: '12' }, [
              node('host', { hostname: em.media.hostname, maxContentLengthBytes: String(64 * 1024 * 1024) }),
            ]),
          ])
        : iqError(iq, 501, 'feature-not-implemented')
    default:
      return iqResult(iq)
  }
}

/** Runs a device's change through the world; a refusal becomes an IQ error. */
async function apply(em: WaEmulator, conn: WireConnection, iq: BinaryNode, setting: WireSetting): Promise<BinaryNode> {
  const me = await em.deviceOf(conn)
  if (!me) return iqError(iq, 401, 'not-authorized')
  if (!em.world.apply) return iqError(iq, 501, 'feature-not-implemented')
  try {
    await em.world.apply(toWireDevice(me.device), setting)
    return iqResult(iq)
  } catch (err) {
    if (isGatewayError(err)) return iqError(iq, err.status === 404 ? 404 : 400, err.status === 404 ? 'item-not-found' : 'bad-request')
    throw err
  }
}

function answerAbout(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  return apply(em, conn, iq, { kind: 'about', about: textOf(child(iq, 'status')) ?? '' })
}

async function answerBlock(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const item = child(iq, 'item')
  // v7 names the LID in `jid` and the phone number in `pn_jid` (when blocking).
  const account = (await em.accountOfJid(item?.attrs.pn_jid)) ?? (await em.accountOfJid(item?.attrs.jid))
  if (!item || !account) return iqError(iq, 404, 'item-not-found')
  return apply(em, conn, iq, { kind: 'block', jid: `${account.phone}@s.whatsapp.net`, blocked: item.attrs.action === 'block' })
}

async function answerPicture(em: WaEmulator, conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  const me = await em.deviceOf(conn)
  const target = iq.attrs.target
  const url = me && target && em.world.pictureOf ? await em.world.pictureOf(toWireDevice(me.device), target) : null
  if (!url) return iqError(iq, 404, 'item-not-found')
  return iqResult(iq, [node('picture', { type: child(iq, 'picture')?.attrs.type ?? 'image', id: String(hashOf(url)), url })])
}

const hashOf = (text: string): number => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)

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
    if (!phone || !wrapped || wrapped.length < 80 || !em.isRegistering(conn)) return iqError(iq, 400, 'bad-request')
    em.companionHello(conn, { phone, wrappedEphemeral: wrapped, platform: bytesOf(child(linkCode, 'companion_platform_display'))?.toString() ?? '' })
    return iqResult(iq, [node('link_code_companion_reg', {}, [node('link_code_pairing_ref', {}, Buffer.from('sandbox'))])])
  }
  if (linkCode?.attrs.stage === 'companion_finish') {
    const bundle = bytesOf(child(linkCode, 'link_code_pairing_wrapped_key_bundle'))
    if (bundle) em.companionFinish(conn, bundle)
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

