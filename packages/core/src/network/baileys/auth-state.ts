/**
 * Baileys' auth state (creds + signal keys) on top of the gateway's {@link AuthStore}: every key
 * type round-trips through the JSON-safe codec, each `set()` is one atomic `setKeys` call, and
 * whole-creds saves run through a serial queue that coalesces bursts. The in-memory state object
 * lives as long as the session runtime, so the restart after pairing (515) reuses it as is.
 * @module
 */
import {
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys'
import type { Logger } from '../../kernel/logger.js'
import type { AuthStore } from '../driver.js'
import { fromStored, toJsonSafe } from './codec.js'

/** The ten key types Baileys 7 stores (all must round-trip). */
export const SIGNAL_KEY_TYPES = [
  'pre-key',
  'session',
  'sender-key',
  'sender-key-memory',
  'app-state-sync-key',
  'app-state-sync-version',
  'lid-mapping',
  'device-list',
  'tctoken',
  'identity-key',
] as const satisfies readonly (keyof SignalDataTypeMap)[]

/** Whether these creds belong to a linked device (a pairing completed at some point). */
export function isLinked(creds: AuthenticationCreds): boolean {
  return creds.registered || creds.account != null
}

/** A {@link SignalKeyStore} writing straight to the AuthStore (no cache). */
export function makeSignalKeyStore(auth: AuthStore): SignalKeyStore {
  return {
    async get(type, ids) {
      const found = await auth.getKeys(type, ids)
      const out: Record<string, unknown> = {}
      for (const [id, value] of Object.entries(found)) {
        if (value === null || value === undefined) continue
        out[id] =
          type === 'app-state-sync-key'
            ? proto.Message.AppStateSyncKeyData.fromObject(fromStored(value) as Record<string, unknown>)
            : fromStored(value)
      }
      return out as { [id: string]: SignalDataTypeMap[typeof type] }
    },
    async set(data: SignalDataSet) {
      const write: Record<string, Record<string, unknown | null>> = {}
      for (const [type, entries] of Object.entries(data)) {
        if (!entries) continue
        const bucket: Record<string, unknown | null> = {}
        for (const [id, value] of Object.entries(entries)) bucket[id] = value == null ? null : toJsonSafe(value)
        write[type] = bucket
      }
      if (Object.keys(write).length > 0) await auth.setKeys(write)
    },
    async clear() {
      await auth.clear()
    },
  }
}

/** Runs saves one at a time; saves asked for while one runs collapse into one more. */
export class SerialSaver {
  #running: Promise<void> | undefined
  #dirty = false

  constructor(
    private readonly save: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  schedule(): void {
    this.#dirty = true
    this.#running ??= this.#loop()
  }

  /** Resolves once nothing is pending. */
  async flush(): Promise<void> {
    while (this.#running) await this.#running
  }

  async #loop(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false
        await this.save()
      }
    } catch (err) {
      this.onError(err)
    } finally {
      this.#running = undefined
    }
  }
}

export interface SessionAuthState {
  /** The object handed to every socket of this session (same creds object across restarts). */
  readonly state: AuthenticationState
  /** Saves the whole creds soon (coalesced, serial). */
  saveCreds(): void
  /** Waits for pending creds saves. */
  flush(): Promise<void>
  /** Removes creds and every key, together. */
  clear(): Promise<void>
}

/**
 * Loads (or creates) the auth state of a session. Creds of a pairing that never completed (a
 * pairing code was requested, then the process stopped) are replaced by fresh ones, as Baileys
 * would otherwise send a login for an unpaired device.
 */
export async function loadAuthState(auth: AuthStore, logger: Logger): Promise<SessionAuthState> {
  let creds = (await auth.readCreds()) as AuthenticationCreds | undefined
  if (creds) creds = fromStored(creds)
  if (creds?.me && !isLinked(creds)) {
    logger.info('discarding creds of an unfinished pairing')
    await auth.clear()
    creds = undefined
  }
  const state: AuthenticationState = {
    creds: creds ?? initAuthCreds(),
    keys: makeCacheableSignalKeyStore(makeSignalKeyStore(auth), logger),
  }
  const saver = new SerialSaver(
    () => auth.writeCreds(toJsonSafe(state.creds)),
    (err) => logger.error({ err }, 'saving creds failed'),
  )
  return {
    state,
    saveCreds: () => saver.schedule(),
    flush: () => saver.flush(),
    async clear() {
      await saver.flush()
      await auth.clear()
    },
  }
}
