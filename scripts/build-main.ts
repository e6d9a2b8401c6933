import { cp, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

// Bundles the Electron main process and the preload. Native and Electron modules stay external:
// better-sqlite3-multiple-ciphers is loaded from node_modules (rebuilt for Electron's ABI by `npm run dist`).
const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: true,
  // pdfjs-dist (the archive's text extraction) loads its worker module at run time from its own folder.
  external: ['electron', 'better-sqlite3-multiple-ciphers', 'pdfjs-dist'],
  // drizzle's driver imports better-sqlite3 by name; the app ships its encrypting twin only.
  alias: { 'better-sqlite3': 'better-sqlite3-multiple-ciphers' },
  logLevel: 'info',
};

await build({ ...common, entryPoints: ['src-main/shell/main.ts'], outfile: 'dist/main/shell.cjs' });
// A sandboxed preload must be one self-contained script.
await build({ ...common, entryPoints: ['src-main/shell/preload.ts'], outfile: 'dist/main/preload.cjs' });
// The archive's PDF text extraction runs on a worker thread (src-main/core/archive/pdf-text-thread.ts).
await build({ ...common, entryPoints: ['src-main/core/archive/pdf-text-worker.ts'], outfile: 'dist/main/pdf-text-worker.cjs' });
// The contract document's PDF is set in the font the renderer ships (src-main/core/contract-document/shipped-font.ts):
// its subset files and their Unicode map go beside the bundle, the same files as the renderer's.
const fontPackage = dirname(createRequire(import.meta.url).resolve('@fontsource-variable/noto-sans-sc/unicode.json'));
await mkdir('dist/main/fonts', { recursive: true });
await cp(join(fontPackage, 'files'), 'dist/main/fonts', { recursive: true });
await cp(join(fontPackage, 'unicode.json'), 'dist/main/fonts/unicode.json');
