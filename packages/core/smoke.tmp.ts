import { openStore } from './src/store/index.js'
for (const uri of ['sqlite:///etc/passwd/x.sqlite', 'sqlite:///tmp', 'mysql://x', 'foo', '', 'sqlite://', 'redis://:pw@', 'postgres://root@127.0.0.1:5432/nodb']) {
  const t0 = performance.now()
  try { await openStore(uri, { logger: { ...console, level: 'x', fatal: console.error, trace: console.log, child() { return this } } as any }); console.log('opened?!', uri) } catch (e) { console.log('ERR', JSON.stringify((e as Error).message), Math.round(performance.now() - t0)) }
}
