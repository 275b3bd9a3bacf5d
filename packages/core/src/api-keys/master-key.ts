/**
 * The master admin key: given by the operator, or generated on the first start. Only its hash is
 * kept (in the `settings` collection), so a restart without the setting keeps the same key.
 * @module
 */
import type { Store } from '../store/store.js'
import { MANAGED_KEY_PREFIX, generateKey, hashKey, isValidMasterKey } from './hashing.js'

interface MasterKeySetting {
  hash: string
}

/** Hash of the master key to use, and the raw key when it was generated now (print it once). */
export async function resolveMasterKey(store: Store, given: string | undefined): Promise<{ hash: string; generated?: string }> {
  const settings = store.collection<MasterKeySetting>('settings')
  if (given !== undefined) {
    if (!isValidMasterKey(given)) {
      throw new Error(`The admin key must be ${MANAGED_KEY_PREFIX} followed by at least 32 characters`)
    }
    const hash = hashKey(given)
    const stored = await settings.get('master-key')
    if (stored?.hash !== hash) await settings.set('master-key', { hash })
    return { hash }
  }
  const stored = await settings.get('master-key')
  if (stored) return { hash: stored.hash }
  const generated = generateKey(MANAGED_KEY_PREFIX)
  const hash = hashKey(generated)
  await settings.set('master-key', { hash })
  return { hash, generated }
}
