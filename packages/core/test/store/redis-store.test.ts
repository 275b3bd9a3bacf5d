import { silentLogger } from '../../src/kernel/index.js'
import { openStore } from '../../src/store/index.js'
import { openRedisBackend } from '../../src/store/redis-backend.js'
import { requireService, uniqueNamespace } from './support/services.js'
import { describeStoreConformance } from './support/store-conformance.js'

const URI = 'redis://127.0.0.1:6379'

describeStoreConformance('openStore("redis://…")', async (ctx) => {
  await requireService(ctx, 'redis')
  const namespace = uniqueNamespace()
  return {
    kind: 'redis',
    persistent: true,
    open: () => openStore(URI, { namespace }),
    async dispose() {
      const backend = await openRedisBackend(URI, namespace, silentLogger)
      const keys = await backend.client.keys(`${namespace}:*`)
      if (keys.length > 0) await backend.client.del(keys)
      await backend.close()
    },
  }
})
