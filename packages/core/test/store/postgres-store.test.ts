import { silentLogger } from '../../src/kernel/index.js'
import { openStore } from '../../src/store/index.js'
import { openPostgresBackend } from '../../src/store/postgres-backend.js'
import { requireService, uniqueNamespace } from './support/services.js'
import { describeStoreConformance } from './support/store-conformance.js'

/** The machine's Postgres trusts local users; the role is root or postgres depending on setup. */
const CANDIDATE_URIS = ['postgres://root@127.0.0.1:5432/test', 'postgresql://postgres@127.0.0.1:5432/test']

describeStoreConformance('openStore("postgres://…")', async (ctx) => {
  await requireService(ctx, 'postgres')
  const namespace = uniqueNamespace()
  const failures: string[] = []
  for (const uri of CANDIDATE_URIS) {
    try {
      await (await openStore(uri, { namespace })).close()
    } catch (err) {
      failures.push((err as Error).message)
      continue
    }
    /** Opening a backend creates the table again: so one connection for all `statements`. */
    const raw = async (...statements: string[]): Promise<void> => {
      const backend = await openPostgresBackend(uri, namespace, silentLogger)
      try {
        for (const sql of statements) await backend.query(sql)
      } finally {
        await backend.close()
      }
    }
    return {
      kind: 'postgres',
      persistent: true,
      open: () => openStore(uri, { namespace }),
      async installPoison() {
        await raw(
          `CREATE OR REPLACE FUNCTION ${namespace}_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
             IF position('poison' in NEW.key) > 0 THEN RAISE EXCEPTION 'poison refused'; END IF;
             RETURN NEW;
           END $$`,
          `CREATE TRIGGER poison BEFORE INSERT ON public.${namespace}
           FOR EACH ROW EXECUTE FUNCTION ${namespace}_poison()`,
        )
      },
      async dispose() {
        await raw(`DROP TABLE IF EXISTS public.${namespace}`, `DROP FUNCTION IF EXISTS ${namespace}_poison()`)
      },
    }
  }
  console.warn(`    SKIPPED postgres store tests: no candidate URI works (${failures.join('; ')})`)
  return ctx.skip()
})
