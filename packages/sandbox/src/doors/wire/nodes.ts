/**
 * Small helpers over WABinary nodes (Baileys' `BinaryNode`), so handlers read like the stanzas
 * they answer.
 * @module
 */
import type { BinaryNode } from '@whiskeysockets/baileys'

export type { BinaryNode }

export const S_WHATSAPP_NET = 's.whatsapp.net'

/** A node; attributes whose value is `undefined` are dropped. */
export function node(
  tag: string,
  attrs: Record<string, string | undefined> = {},
  content?: BinaryNode[] | Uint8Array | string,
): BinaryNode {
  const clean: Record<string, string> = {}
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) clean[k] = v
  return content === undefined ? { tag, attrs: clean } : { tag, attrs: clean, content }
}

export function children(parent: BinaryNode | undefined, tag?: string): BinaryNode[] {
  if (!parent || !Array.isArray(parent.content)) return []
  return tag === undefined ? parent.content : parent.content.filter((c) => c.tag === tag)
}

export function child(parent: BinaryNode | undefined, tag: string): BinaryNode | undefined {
  return children(parent, tag)[0]
}

/** The bytes of a node's content (strings are UTF-8 encoded). */
export function bytesOf(n: BinaryNode | undefined): Buffer | undefined {
  if (!n || n.content === undefined || Array.isArray(n.content)) return undefined
  return typeof n.content === 'string' ? Buffer.from(n.content, 'utf8') : Buffer.from(n.content)
}

export function textOf(n: BinaryNode | undefined): string | undefined {
  const bytes = bytesOf(n)
  return bytes?.toString('utf8')
}

/** A big-endian unsigned integer of `length` bytes. */
export function uintBytes(value: number, length: number): Buffer {
  const out = Buffer.alloc(length)
  for (let i = length - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v & 0xff
  return out
}

export function readUint(bytes: Uint8Array | undefined): number {
  let value = 0
  for (const b of bytes ?? []) value = value * 256 + b
  return value
}

/** The `result` answer to an IQ. */
export function iqResult(iq: BinaryNode, content?: BinaryNode[]): BinaryNode {
  return node('iq', { id: iq.attrs.id, type: 'result', from: iq.attrs.to ?? S_WHATSAPP_NET }, content)
}

/** The `error` answer to an IQ. */
export function iqError(iq: BinaryNode, code: number, text: string): BinaryNode {
  return node('iq', { id: iq.attrs.id, type: 'error', from: iq.attrs.to ?? S_WHATSAPP_NET }, [
    node('error', { code: String(code), text }),
  ])
}
