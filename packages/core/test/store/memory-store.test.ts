import { openStore } from '../../src/store/index.js'
import { describeStoreConformance } from './support/store-conformance.js'

describeStoreConformance('openStore("memory")', async () => ({
  kind: 'memory',
  persistent: false,
  open: () => openStore('memory'),
  dispose: async () => {},
}))
