import { build, type BuildOptions } from 'esbuild';

// Bundles the Electron main process and the preload. Native and Electron modules stay external:
// better-sqlite3 is loaded from node_modules (rebuilt for Electron's ABI by `npm run dist`).
const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: true,
  // pdfjs-dist (the archive's text extraction) loads its worker module at run time from its own folder.
  external: ['electron', 'better-sqlite3', 'pdfjs-dist'],
  logLevel: 'info',
};

await build({ ...common, entryPoints: ['src-main/shell/main.ts'], outfile: 'dist/main/shell.cjs' });
// A sandboxed preload must be one self-contained script.
await build({ ...common, entryPoints: ['src-main/shell/preload.ts'], outfile: 'dist/main/preload.cjs' });
// The archive's PDF text extraction runs on a worker thread (src-main/core/archive/pdf-text-thread.ts).
await build({ ...common, entryPoints: ['src-main/core/archive/pdf-text-worker.ts'], outfile: 'dist/main/pdf-text-worker.cjs' });
