import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One data cache per test run (src-server/db/data-cache.ts): the suites' PGlite databases start
 * as copies of one migrated database, and each demo seed is made once. The test workers are forked
 * after this runs, so they inherit the variable.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'contract-desk-data-cache-'));
  process.env.CONTRACT_DATA_CACHE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
