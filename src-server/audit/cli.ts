import { parseArgs } from 'node:util';
import { databaseFromEnvironment, fail } from '../cli-args';
import { defaultDataDir, openDatabase } from '../db/database';
import { organisations } from '../db/schema';
import { verifyAuditChain } from './chain';

// `npm run audit:verify [-- --data DIR]`; honours DATABASE_URL like the server. Walks every
// organisation's audit chain and names the first event that was changed or removed; exits 1 then.

const usage = `Usage: npm run audit:verify -- [--data ${defaultDataDir}]
With DATABASE_URL=postgres://… it checks that PostgreSQL instead of the PGlite in --data.`;

let values: { data?: string };
try {
  ({ values } = parseArgs({ options: { data: { type: 'string' } } }));
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
}

const handle = await openDatabase(databaseFromEnvironment(values.data ?? defaultDataDir));
let broken = 0;
try {
  for (const { id, name } of await handle.db.select({ id: organisations.id, name: organisations.name }).from(organisations)) {
    const result = await verifyAuditChain(handle.db, id);
    if (result.problem) {
      broken += 1;
      console.log(`${name}: BROKEN after ${result.checked} intact events: ${result.problem.message}`);
    } else {
      console.log(`${name}: intact, ${result.checked} events${result.fromSeq === null ? '' : ` from event ${result.fromSeq}`}`);
    }
  }
} finally {
  await handle.close();
}
process.exitCode = broken > 0 ? 1 : 0;
