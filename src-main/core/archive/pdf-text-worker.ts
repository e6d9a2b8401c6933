import { parentPort, workerData } from 'node:worker_threads';
import { extractPdfText } from './pdf-text';
import type { PdfTextMessage } from './pdf-text-thread';

// The worker thread that extracts an archived PDF's text (bundled as dist/main/pdf-text-worker.cjs):
// it gets the bytes, reports each page, and ends with the text or the reason it could not.

const port = parentPort;
if (!port) throw new Error('pdf-text-worker runs as a worker thread');
const post = (message: PdfTextMessage) => port.postMessage(message);
const { bytes } = workerData as { bytes: Uint8Array };

extractPdfText(bytes, (indexedPages, pages) => post({ kind: 'page', indexedPages, pages })).then(
  ({ text, pages }) => post({ kind: 'done', text, pages }),
  (cause: unknown) => post({ kind: 'failed', message: cause instanceof Error ? cause.message : String(cause) }),
);
