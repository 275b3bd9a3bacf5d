/**
 * The `memory` backend: one `Map` of encoded text per collection. Values go through the codec like
 * everywhere else, so callers get copies and the same round-trip rules as on disk. Every operation
 * is synchronous inside, hence a batch is atomic.
 * @module
 */
import type { Backend } from './backend.js'

/** A new, empty in-memory backend; closing it drops the data. */
export function openMemoryBackend(): Backend {
  const collections = new Map<string, Map<string, string>>()
  const entriesOf = (collection: string): Map<string, string> => {
    let entries = collections.get(collection)
    if (entries === undefined) {
      entries = new Map()
      collections.set(collection, entries)
    }
    return entries
  }
  const idsUnder = (collection: string, idPrefix: string): string[] =>
    [...entriesOf(collection).keys()].filter((id) => id.startsWith(idPrefix))

  return {
    kind: 'memory',
    get: async (collection, id) => entriesOf(collection).get(id),
    getMany: async (collection, ids) => ids.map((id) => entriesOf(collection).get(id)),
    set: async (collection, id, text) => {
      entriesOf(collection).set(id, text)
    },
    delete: async (collection, id) => entriesOf(collection).delete(id),
    batch: async (collection, sets, deletes) => {
      const entries = entriesOf(collection)
      for (const id of deletes) entries.delete(id)
      for (const [id, text] of sets) entries.set(id, text)
    },
    async *scan(collection, idPrefix) {
      const entries = entriesOf(collection)
      for (const id of idsUnder(collection, idPrefix)) {
        const text = entries.get(id)
        if (text !== undefined) yield [id, text]
      }
    },
    clear: async (collection, idPrefix) => {
      const entries = entriesOf(collection)
      for (const id of idsUnder(collection, idPrefix)) entries.delete(id)
    },
    close: async () => {
      collections.clear()
    },
  }
}
