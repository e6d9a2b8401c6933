import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImageBuildAnswer, ImageBuildRequest, ImageBuildSetup } from '../../src-shared/sync/image-build';

// The core's image builder on a worker thread of the server (src-main/core/replica-image): the
// replica's schema and pull writers are the desktop's own code, run here rather than copied, so
// the server names the builder's file and speaks to it only through messages.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The desktop's migrations: an image is built at the replica schema they make. */
export const clientMigrationsFolder = join(repoRoot, 'migrations', 'client');
const builderEntry = join(repoRoot, 'src-main', 'core', 'replica-image', 'worker.ts');

/** The replica schema version the desktop's migrations make: their count (as the desktop stores it in user_version). */
export function replicaVersionOf(migrationsDir: string = clientMigrationsFolder): number {
  return (JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
}

export interface ImageThread {
  /** Hands one packed page (a line of the feed stream) to the builder. */
  page(line: string): void;
  /** Ends the build: the compressed image, or the builder's failure. */
  finish(userId: string, builtAt: string): Promise<Extract<ImageBuildAnswer, { kind: 'done' }>>;
  /** Stops the builder whatever it is doing, and removes its files. */
  stop(): Promise<void>;
}

export function startImageThread(migrationsDir: string = clientMigrationsFolder): ImageThread {
  const workDir = mkdtempSync(join(tmpdir(), 'contract-desk-image-'));
  const setup: ImageBuildSetup = { migrationsDir, workDir };
  // The server runs from source under tsx: the thread registers it, then loads the builder.
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const worker = new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(builderEntry).href)}); });`, {
    eval: true,
    workerData: setup,
  });
  let failure: Error | null = null;
  let answered: ((answer: ImageBuildAnswer) => void) | null = null;
  const failed = (error: Error) => {
    failure ??= error;
    answered?.({ kind: 'failed', message: failure.message });
  };
  worker.on('message', (answer: ImageBuildAnswer) => (answer.kind === 'failed' ? failed(new Error(answer.message)) : answered?.(answer)));
  worker.on('error', failed);
  worker.on('exit', (code) => failed(new Error(`the image builder stopped (exit code ${code})`)));
  const stop = async () => {
    await worker.terminate();
    rmSync(workDir, { recursive: true, force: true });
  };
  return {
    page(line) {
      if (!failure) worker.postMessage({ kind: 'page', line } satisfies ImageBuildRequest);
    },
    async finish(userId, builtAt) {
      try {
        const answer = await new Promise<ImageBuildAnswer>((resolve) => {
          answered = resolve;
          if (failure) resolve({ kind: 'failed', message: failure.message });
          else worker.postMessage({ kind: 'finish', userId, builtAt } satisfies ImageBuildRequest);
        });
        if (answer.kind === 'failed') throw new Error(`the replica image was not built: ${answer.message}`);
        return answer;
      } finally {
        await stop();
      }
    },
    stop,
  };
}
