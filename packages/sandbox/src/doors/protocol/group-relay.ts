/**
 * Group messages from companions (sender keys).
 * @module
 */
import type { WaEmulator } from './emulator.js'
import type { WireConnection } from './connection.js'
import type { DeviceRecord } from './devices.js'
import type { BinaryNode } from './nodes.js'
import type { WireAccount } from './wire-world.js'

export async function handleGroupMessage(
  _em: WaEmulator,
  _conn: WireConnection,
  _me: { account: WireAccount; device: DeviceRecord },
  _stanza: BinaryNode,
): Promise<void> {}
