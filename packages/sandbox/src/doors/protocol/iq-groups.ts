/**
 * Group IQs (`w:g2`).
 * @module
 */
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import { iqError, type BinaryNode } from './nodes.js'

export async function answerGroupIq(em: WaEmulator, _conn: WireConnection, iq: BinaryNode): Promise<BinaryNode> {
  if (!em.world.groups) return iqError(iq, 501, 'feature-not-implemented')
  return iqError(iq, 501, 'feature-not-implemented')
}
