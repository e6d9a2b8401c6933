import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractPdfTextOffThread } from '../../src-main/core/archive/pdf-text-thread';

// The archived PDF's text is read on a worker thread (issue 14 item 6): the pages and their
// progress arrive, the core's event loop keeps turning meanwhile, an abort ends the work, and a
// file that is no PDF fails plainly.

async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([420, 600]);
    for (let line = 0; line < 40; line++) page.drawText(`Page ${i} line ${line}: the Wombatclause governs delivery.`, { x: 20, y: 580 - line * 14, size: 9, font });
  }
  return doc.save();
}

describe('PDF text on a worker thread', () => {
  it('reads every page with progress while the event loop keeps turning', { timeout: 60_000 }, async () => {
    const bytes = await pdf(40);
    const progress: [number, number][] = [];
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 5);
    try {
      const { text, pages } = await extractPdfTextOffThread(bytes, (done, total) => progress.push([done, total]));
      expect(pages).toBe(40);
      expect(text.split('\n')).toHaveLength(40);
      expect(text).toContain('Page 40 line 39: the Wombatclause governs delivery.');
      expect(progress.map(([done]) => done)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(progress.every(([, total]) => total === 40)).toBe(true);
    } finally {
      clearInterval(timer);
    }
    // The main thread was free: its timer ran throughout (pdfjs on this thread stalls it for the whole document).
    expect(ticks).toBeGreaterThan(5);
    expect(longestGap).toBeLessThan(400);
  });

  it('hands the bytes over to the worker (no copy left on the core)', async () => {
    const bytes = await pdf(1);
    const done = extractPdfTextOffThread(bytes, () => undefined);
    expect(bytes.byteLength).toBe(0);
    expect((await done).text).toContain('Wombatclause');
  });

  it('stops at once when aborted, and fails plainly on a file that is no PDF', { timeout: 30_000 }, async () => {
    const controller = new AbortController();
    const pages: number[] = [];
    const reading = extractPdfTextOffThread(await pdf(60), (done) => {
      pages.push(done);
      if (done === 2) controller.abort(new Error('signed out'));
    }, controller.signal);
    await expect(reading).rejects.toThrow('signed out');
    expect(pages.length).toBeLessThan(60);
    await expect(extractPdfTextOffThread(new TextEncoder().encode('not a pdf at all'), () => undefined)).rejects.toThrow(/PDF/i);
  });
});
