import { listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm run check:package`: packs the app unpacked for Linux with electron-builder and this repo's
// electron-builder.yml, against a stand-in Electron (the real binary cannot be downloaded here),
// then checks what would ship: the asar contents, the encrypting SQLite unpacked, and the fuses flipped.
// Expects `npm run build` to have run. Native modules are not rebuilt (nothing to run them with).

// A fuse is the ASCII byte '1' (on) or '0' (off) in the binary's fuse wire.
const on = 0x31;
const off = 0x30;

/** A stand-in Electron executable: a shell script carrying a fuse wire with every fuse enabled. */
function standInElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const fuseCount = Object.keys(FuseV1Options).filter((k) => Number.isNaN(Number(k))).length;
  const wire = Buffer.concat([
    Buffer.from('#!/bin/sh\necho stand-in electron\n# dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
    Buffer.from([1, fuseCount]),
    Buffer.alloc(fuseCount, on),
    Buffer.from('\n'),
  ]);
  writeFileSync(join(dir, 'electron'), wire);
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), '45.4.1');
}

const work = mkdtempSync(join(tmpdir(), 'contract-desk-package-'));
const failures: string[] = [];
const expect = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

try {
  for (const built of ['dist/main/shell.cjs', 'dist/main/preload.cjs', 'dist/main/pdf-text-worker.cjs', 'dist/renderer/index.html']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const electronDist = join(work, 'electron');
  standInElectron(electronDist);
  const output = join(work, 'out');
  const result = spawnSync(
    'npx',
    ['electron-builder', '--linux', 'dir', '--x64', `-c.electronDist=${electronDist}`, '-c.npmRebuild=false', `-c.directories.output=${output}`],
    { encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } },
  );
  if (result.status !== 0) throw new Error(`electron-builder failed:\n${result.stdout}\n${result.stderr}`);

  const appDir = join(output, 'linux-unpacked');
  const asar = join(appDir, 'resources', 'app.asar');
  const files = new Set(listPackage(asar, { isPack: false }).map((f) => f.replaceAll('\\', '/')));
  console.log(`app.asar: ${files.size} entries`);
  for (const file of ['/package.json', '/dist/main/shell.cjs', '/dist/main/preload.cjs', '/dist/main/pdf-text-worker.cjs', '/dist/renderer/index.html', '/migrations/client/meta/_journal.json']) {
    expect(files.has(file), `app.asar holds ${file}`);
  }
  expect([...files].some((f) => /^\/migrations\/client\/\d{4}_.*\.sql$/.test(f)), 'app.asar holds the client migrations');
  expect(![...files].some((f) => f.endsWith('.map')), 'no source maps shipped');
  expect(![...files].some((f) => /^\/(src-|tests|node_modules\/(react|fastify|@electric-sql|electron))/.test(f)), 'no sources, tests or bundled libraries shipped');
  const unpacked = join(appDir, 'resources', 'app.asar.unpacked', 'node_modules');
  expect(
    existsSync(join(unpacked, 'better-sqlite3-multiple-ciphers', 'build', 'Release', 'better_sqlite3.node')),
    'better-sqlite3-multiple-ciphers (the encrypted replica) unpacked beside app.asar',
  );
  expect(!existsSync(join(unpacked, 'better-sqlite3')), 'the plain better-sqlite3 not shipped');

  const fuses = await getCurrentFuseWire(join(appDir, 'contract-desk'));
  const wanted: [FuseV1Options, number][] = [
    [FuseV1Options.RunAsNode, off],
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable, off],
    [FuseV1Options.EnableNodeCliInspectArguments, off],
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation, on],
    [FuseV1Options.OnlyLoadAppFromAsar, on],
    [FuseV1Options.GrantFileProtocolExtraPrivileges, off],
  ];
  for (const [fuse, state] of wanted) {
    expect(fuses[fuse] === state, `fuse ${FuseV1Options[fuse]} ${state === on ? 'on' : 'off'}`);
  }
} catch (error) {
  failures.push(String(error instanceof Error ? error.message : error));
  console.error(error instanceof Error ? error.message : error);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failures.length === 0 ? 0 : 1);
