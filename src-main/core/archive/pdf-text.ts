import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The text of an archived PDF for the full-text index, read with pdfjs-dist (its Node build) page
// by page, so progress can be reported. It runs on a worker thread (pdf-text-thread.ts), never on
// the core's event loop, and never in the renderer.

/**
 * This module's file: the source (.ts, run by tsx or Vitest) or the bundle it was built into
 * (dist/main/*.cjs, where esbuild leaves import.meta empty and __filename names the bundle).
 */
export function moduleFile(): string {
  const url = (import.meta as { url?: string }).url;
  return typeof url === 'string' && url.startsWith('file:') ? fileURLToPath(url) : __filename;
}

/** Enough for any contract; a longer document's tail is left out of the index rather than bloat it. */
export const maxIndexedCharacters = 2_000_000;

/** pdfjs reads the standard fonts' metrics from its own folder (otherwise it warns on every document). */
function standardFontDataUrl(): string {
  const packageJson = createRequire(moduleFile()).resolve('pdfjs-dist/package.json');
  return `${pathToFileURL(join(dirname(packageJson), 'standard_fonts')).pathname}/`;
}

export interface PdfTextProgress {
  (indexedPages: number, pages: number): void;
}

/**
 * The document's text, its pages' text items joined by spaces and pages by new lines; calls
 * `onPage` after each page. Fails (an Error from pdfjs) on a file that is no readable PDF.
 */
export async function extractPdfText(bytes: Uint8Array, onPage: PdfTextProgress, signal?: AbortSignal): Promise<{ text: string; pages: number }> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: bytes, disableFontFace: true, useSystemFonts: false, standardFontDataUrl: standardFontDataUrl(), verbosity: 0 });
  const pdf = await task.promise;
  try {
    const parts: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number += 1) {
      signal?.throwIfAborted();
      if (length < maxIndexedCharacters) {
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ').replace(/\s+/g, ' ').trim();
        page.cleanup();
        parts.push(text);
        length += text.length + 1;
      }
      onPage(number, pdf.numPages);
    }
    return { text: parts.join('\n').slice(0, maxIndexedCharacters), pages: pdf.numPages };
  } finally {
    await task.destroy();
  }
}
