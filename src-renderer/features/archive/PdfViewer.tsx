import { useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Spinner, Tag } from '@blueprintjs/core';
import { GlobalWorkerOptions, getDocument, TextLayer, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useTranslation } from 'react-i18next';
import './archive.css';

// The archived PDF shown in place (spec 2 "contract archive", UI.md "the archived PDF rendered in
// place") with pdf.js: the document is parsed in pdf.js's own web worker (a module worker that Vite
// emits as a file beside the bundle, so it loads from 'self' in the browser and under app://),
// each page drawn on a canvas when it scrolls into view, with a text layer so text can be selected.

GlobalWorkerOptions.workerSrc = workerUrl;

const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;
const defaultZoom = 2;

function PdfPage({ pdf, number, scale }: { pdf: PDFDocumentProxy; number: number; scale: number }) {
  const { t } = useTranslation();
  const holder = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [visible, setVisible] = useState(false);

  // The page's size first (cheap), so the column has its full height before anything is drawn.
  useEffect(() => {
    let live = true;
    void pdf.getPage(number).then((page) => {
      const viewport = page.getViewport({ scale });
      if (live) setSize({ width: viewport.width, height: viewport.height });
    });
    return () => {
      live = false;
    };
  }, [pdf, number, scale]);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const observer = new IntersectionObserver(([entry]) => setVisible(entry?.isIntersecting ?? false), { rootMargin: '400px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = holder.current;
    if (!visible || !element || !size) return;
    let cancelled = false;
    const canvas = document.createElement('canvas');
    const text = document.createElement('div');
    text.className = 'textLayer';
    let textLayer: TextLayer | null = null;
    let render: ReturnType<Awaited<ReturnType<PDFDocumentProxy['getPage']>>['render']> | null = null;
    void pdf.getPage(number).then(async (page) => {
      if (cancelled) return;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${viewport.width}px`;
      canvas.style.height = `${viewport.height}px`;
      element.replaceChildren(canvas, text);
      render = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      textLayer = new TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport });
      await Promise.all([render.promise, textLayer.render()]).catch(() => undefined);
    });
    return () => {
      cancelled = true;
      render?.cancel();
      textLayer?.cancel();
      element.replaceChildren();
    };
  }, [pdf, number, scale, visible, size]);

  return (
    <div
      ref={holder}
      className="pdf-viewer__page"
      data-testid="pdf-page"
      aria-label={t('archive.archive.page', { page: number })}
      style={{ width: size?.width ?? 600, height: size?.height ?? 800, ['--total-scale-factor' as string]: scale }}
    />
  );
}

/** Pages, zoom and selectable text of a PDF given as bytes. */
export function PdfViewer({ data }: { data: Uint8Array }) {
  const { t } = useTranslation();
  // The document loaded from `data` (a state of other bytes is stale while the new ones load).
  const [loaded, setLoaded] = useState<{ data: Uint8Array; pdf: PDFDocumentProxy | null } | null>(null);
  const [zoom, setZoom] = useState(defaultZoom);
  const scale = zoomSteps[zoom] ?? 1;

  useEffect(() => {
    // pdf.js takes the buffer over to its worker: it gets a copy, the caller keeps its bytes.
    const task = getDocument({ data: data.slice() });
    task.promise.then(
      (pdf) => setLoaded({ data, pdf }),
      () => setLoaded({ data, pdf: null }),
    );
    return () => void task.destroy();
  }, [data]);

  const current = loaded?.data === data ? loaded : null;
  const pdf = current?.pdf;
  if (current && !pdf) return <Callout intent="danger" icon="error" title={t('archive.archive.loadFailed')} />;
  if (!pdf) return <Spinner />;
  return (
    <div className="pdf-viewer" data-testid="pdf-viewer">
      <div className="pdf-viewer__toolbar">
        <ButtonGroup>
          <Button icon="zoom-out" aria-label={t('archive.archive.zoomOut')} title={t('archive.archive.zoomOut')} disabled={zoom === 0} onClick={() => setZoom(zoom - 1)} />
          <Button icon="zoom-in" aria-label={t('archive.archive.zoomIn')} title={t('archive.archive.zoomIn')} disabled={zoom === zoomSteps.length - 1} onClick={() => setZoom(zoom + 1)} />
        </ButtonGroup>
        <Tag minimal data-testid="pdf-zoom">{t('archive.archive.zoom', { percent: Math.round(scale * 100) })}</Tag>
        <Tag minimal data-testid="pdf-pages">{t('archive.archive.pages', { count: pdf.numPages })}</Tag>
      </div>
      <div className="pdf-viewer__pages">
        {Array.from({ length: pdf.numPages }, (_, index) => (
          <PdfPage key={index + 1} pdf={pdf} number={index + 1} scale={scale} />
        ))}
      </div>
    </div>
  );
}
