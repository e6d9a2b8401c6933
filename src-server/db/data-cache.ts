import { cp, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Test suites and benches make hundreds of PGlite databases. With CONTRACT_DATA_CACHE naming a
 * folder, a new data directory starts as a copy of one made earlier in the same run (a migrated
 * empty one, or demo data of one size and seed) instead of an initdb, every migration and a seed:
 * seconds each on two cores. The server itself never sets it.
 */
const cacheDir = (): string | undefined => process.env.CONTRACT_DATA_CACHE || undefined;

async function isEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch {
    return true;
  }
}

/**
 * Copies the cached data directory `key` into the empty `dir`, making it first with `make` (into a
 * scratch folder then renamed, so parallel test workers never see half of one). Resolves to false
 * when no cache is set or `dir` is not empty: the caller then makes the data itself.
 */
export async function fromDataCache(key: string, dir: string, make: (scratch: string) => Promise<void>): Promise<boolean> {
  const cache = cacheDir();
  if (!cache || !(await isEmpty(dir))) return false;
  const entry = path.join(cache, key);
  if (await isEmpty(entry)) {
    const scratch = await mkdtemp(path.join(cache, `${key}.making-`));
    try {
      await make(scratch);
      // Another worker may have made the same entry meanwhile: either copy is good.
      await rename(scratch, entry).catch(() => undefined);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
  await cp(entry, dir, { recursive: true });
  return true;
}
