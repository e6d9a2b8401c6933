import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// drizzle-kit diffs each schema against the last snapshot under its migrations' meta: with the
// snapshots in step with the hand-written migrations, `npm run db:generate` on an unchanged schema
// writes nothing (run here on a copy of each folder, as the package script runs it).

const copies = mkdtempSync(join(process.cwd(), '.drizzle-check-'));
afterAll(() => rmSync(copies, { recursive: true, force: true }));

const listing = (dir: string) => [...readdirSync(dir), ...readdirSync(join(dir, 'meta')).map((name) => `meta/${name}`)].sort();

describe('drizzle snapshots', () => {
  it.each([
    ['client', ['--dialect', 'sqlite', '--schema', './src-main/core/data/schema.ts']],
    ['server', ['--dialect', 'postgresql', '--schema', './src-server/db/schema.ts', '--schema', './src-server/*/schema.ts']],
  ])('generate writes nothing for the unchanged %s schema', (name, args) => {
    const out = join(copies, name);
    cpSync(join('migrations', name), out, { recursive: true });
    const before = listing(out);
    // drizzle-kit takes the output folder relative to where it runs.
    const run = spawnSync(process.execPath, ['node_modules/drizzle-kit/bin.cjs', 'generate', ...args, '--out', `./${relative(process.cwd(), out)}`], { encoding: 'utf8' });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/No schema changes/i);
    expect(listing(out)).toEqual(before);
  }, 180_000);
});
