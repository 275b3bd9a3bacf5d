/**
 * Where the emulator keeps what must survive a restart: its root and static keys, the linked
 * devices with their captured pre-keys, and the emulated phones' Signal state. Values are JSON
 * written with Baileys' `BufferJSON`, so any string store works (the sandbox's store collection,
 * or memory).
 * @module
 */
import { BufferJSON } from '@whiskeysockets/baileys'

/** The subset of a store collection the emulator uses (the core `Collection<string>` fits). */
export interface WireStateBackend {
  get(id: string): Promise<string | undefined>
  set(id: string, value: string): Promise<void>
  delete(id: string): Promise<boolean>
  entries(prefix?: string): AsyncIterable<[id: string, value: string]>
}

/** A typed, cached view over a {@link WireStateBackend}. */
export class WireState {
  readonly #cache = new Map<string, unknown>()

  constructor(private readonly backend: WireStateBackend = memoryBackend()) {}

  async get<T>(id: string): Promise<T | undefined> {
    if (this.#cache.has(id)) return this.#cache.get(id) as T | undefined
    const raw = await this.backend.get(id)
    // A write that landed while we read wins over what we read.
    if (!this.#cache.has(id)) this.#cache.set(id, raw === undefined ? undefined : JSON.parse(raw, BufferJSON.reviver))
    return this.#cache.get(id) as T | undefined
  }

  async set(id: string, value: unknown): Promise<void> {
    this.#cache.set(id, value)
    await this.backend.set(id, JSON.stringify(value, BufferJSON.replacer))
  }

  async delete(id: string): Promise<void> {
    this.#cache.set(id, undefined)
    await this.backend.delete(id)
  }

  /** Every value whose id starts with `prefix + ':'`. */
  async list<T>(prefix: string): Promise<[string, T][]> {
    const out: [string, T][] = []
    for await (const [id, raw] of this.backend.entries(prefix)) {
      const cached = this.#cache.get(id)
      if (this.#cache.has(id) && cached === undefined) continue
      out.push([id, (cached ?? JSON.parse(raw, BufferJSON.reviver)) as T])
    }
    return out
  }
}

/** A backend in memory (the default; state is lost with the process). */
export function memoryBackend(): WireStateBackend {
  const map = new Map<string, string>()
  return {
    get: async (id) => map.get(id),
    set: async (id, value) => {
      map.set(id, value)
    },
    delete: async (id) => map.delete(id),
    async *entries(prefix) {
      for (const entry of [...map]) {
        if (prefix === undefined || entry[0].startsWith(prefix + ':')) yield entry
      }
    },
  }
}
