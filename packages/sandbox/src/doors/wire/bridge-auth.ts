/**
 * The auth store of the in-process sessions behind wire devices: the in-process door keeps only
 * its creds (which account and device the session is), here in the emulator state.
 * @module
 */
import type { AuthStore } from '@switchboard/core'
import type { WireState } from './state.js'

export function bridgeAuth(state: WireState, sessionId: string): AuthStore {
  const key = `bridge:creds:${sessionId}`
  return {
    readCreds: () => state.get<unknown>(key),
    writeCreds: (creds) => state.set(key, creds),
    getKeys: async () => ({}),
    setKeys: async () => {},
    clear: () => state.delete(key),
  }
}
