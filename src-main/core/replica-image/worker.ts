import { parentPort, workerData } from 'node:worker_threads';
import type { ImageBuildAnswer, ImageBuildRequest, ImageBuildSetup } from '../../../src-shared/sync/image-build';
import { replicaImageBuilder } from './build';

// The image builder's thread (build.ts), started by the contract server: pages in, the image out.
// After a failure it answers nothing more; the server ends it.

const port = parentPort!;
let failed = false;
const fail = (cause: unknown) => {
  failed = true;
  port.postMessage({ kind: 'failed', message: cause instanceof Error ? cause.message : String(cause) } satisfies ImageBuildAnswer);
};
let builder: ReturnType<typeof replicaImageBuilder> | null = null;
try {
  builder = replicaImageBuilder(workerData as ImageBuildSetup);
} catch (cause) {
  fail(cause);
}
port.on('message', (request: ImageBuildRequest) => {
  if (failed || !builder) return;
  try {
    if (request.kind === 'page') builder.page(request.line);
    else {
      const done = builder.finish(request.userId, request.builtAt);
      port.postMessage(done, [done.body.buffer as ArrayBuffer]);
    }
  } catch (cause) {
    fail(cause);
  }
});
