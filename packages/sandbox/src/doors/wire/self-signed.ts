/**
 * A self-signed X.509 certificate for the loopback media host (Baileys only speaks HTTPS to media
 * hosts). Node can sign but not build certificates, so the DER is assembled here: an EC P-256
 * key, `CN=Switchboard sandbox media`, SAN `127.0.0.1`, `::1` and `localhost`, CA:TRUE so a
 * client can trust it directly (`ca`). Nothing but the sandbox-wire clients should trust it.
 * @module
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isIPv4 } from 'node:net'

const len = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), len(content.length), content])
const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items))
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items))
const explicit = (n: number, content: Buffer): Buffer => tlv(0xa0 + n, content)
const octets = (b: Buffer): Buffer => tlv(0x04, b)
const bits = (b: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]))
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'))
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]))

/** A DER INTEGER from unsigned big-endian bytes: minimal (no leading zero padding), non-negative. */
function int(b: Buffer): Buffer {
  let start = 0
  while (start < b.length - 1 && b[start] === 0) start++
  const trimmed = b.subarray(start)
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed)
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number)
  const out = [40 * a + b]
  for (const n of rest) {
    const chunk = [n & 0x7f]
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80)
    out.push(...chunk)
  }
  return tlv(0x06, Buffer.from(out))
}

function utcTime(ms: number): Buffer {
  const d = new Date(ms)
  const p = (n: number) => String(n).padStart(2, '0')
  const text = `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`
  return tlv(0x17, Buffer.from(text))
}

const ipBytes = (ip: string): Buffer =>
  isIPv4(ip) ? Buffer.from(ip.split('.').map(Number)) : Buffer.from(ip === '::1' ? '00000000000000000000000000000001' : '', 'hex')

const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`

export interface SelfSigned {
  /** PEM certificate: what a client passes as `ca`. */
  cert: string
  /** PEM private key (PKCS#8). */
  key: string
}

/** Makes a certificate valid from a day before `nowMs` for ten years. */
export function selfSignedCertificate(nowMs: number, hosts: { ips: string[]; names: string[] } = { ips: ['127.0.0.1', '::1'], names: ['localhost'] }): SelfSigned {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const name = seq(set(seq(oid('2.5.4.3'), utf8('Switchboard sandbox media'))))
  const algorithm = seq(oid('1.2.840.10045.4.3.2'))
  const san = seq(...hosts.ips.map((ip) => tlv(0x87, ipBytes(ip))), ...hosts.names.map((n) => tlv(0x82, Buffer.from(n))))
  const extensions = explicit(
    3,
    seq(
      seq(oid('2.5.29.19'), bool(true), octets(seq(bool(true)))),
      seq(oid('2.5.29.15'), bool(true), octets(tlv(0x03, Buffer.from([0x02, 0x84])))),
      seq(oid('2.5.29.17'), octets(san)),
    ),
  )
  const day = 24 * 60 * 60 * 1000
  const tbs = seq(
    explicit(0, int(Buffer.from([2]))),
    int(randomBytes(16)),
    algorithm,
    name,
    seq(utcTime(nowMs - day), utcTime(nowMs + 3650 * day)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  )
  const certificate = seq(tbs, algorithm, bits(sign('sha256', tbs, privateKey)))
  return { cert: pem('CERTIFICATE', certificate), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }
}
