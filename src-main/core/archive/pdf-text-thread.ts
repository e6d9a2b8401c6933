import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { moduleFile, type PdfTextProgress } from './pdf-text';

// Text extraction off the core's event loop: each document is read by pdfjs on a worker thread of
// its own, which reports its pages and ends with the text; an abort terminates it at once.

export type PdfTextMessage =
  | { kind: 'page'; indexedPages: number; pages: number }
  | { kind: 'done'; text: string; pages: number }
  | { kind: 'failed'; message: string };

function startWorker(bytes: Uint8Array): Worker {
  const here = moduleFile();
  const options = { workerData: { bytes }, transferList: [bytes.buffer as ArrayBuffer] };
  // Bundled (Electron): the worker was bundled beside the main bundle.
  if (!here.endsWith('.ts')) return new Worker(join(dirname(here), 'pdf-text-worker.cjs'), options);
  // From source (the web host under tsx, tests): the worker registers tsx, then loads its TypeScript entry.
  // require.resolve answers the CommonJS entry; the ESM one (the package's "import" export) sits beside it.
  const tsx = pathToFileURL(join(dirname(createRequire(here).resolve('tsx/esm/api')), 'index.mjs')).href;
  const entry = pathToFileURL(join(dirname(here), 'pdf-text-worker.ts')).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { ...options, eval: true });
}

/** The document's text (as extractPdfText), read on a worker thread; `bytes` is handed over to it. */
export function extractPdfTextOffThread(bytes: Uint8Array, onPage: PdfTextProgress, signal?: AbortSignal): Promise<{ text: string; pages: number }> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = startWorker(bytes);
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => settle(() => reject(signal?.reason ?? new Error('aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: PdfTextMessage) => {
      if (message.kind === 'page') onPage(message.indexedPages, message.pages);
      else if (message.kind === 'done') settle(() => resolve({ text: message.text, pages: message.pages }));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the PDF text worker stopped (exit code ${code})`))));
  });
}
