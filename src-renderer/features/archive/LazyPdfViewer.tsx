import { lazy, Suspense } from 'react';
import { Spinner } from '@blueprintjs/core';

// pdf.js (and its canvas code) loads when a PDF is first shown, not with the app: screens that
// show none never pay for it.
const PdfViewer = lazy(() => import('./PdfViewer').then((module) => ({ default: module.PdfViewer })));

export function LazyPdfViewer({ data }: { data: Uint8Array }) {
  return (
    <Suspense fallback={<Spinner />}>
      <PdfViewer data={data} />
    </Suspense>
  );
}
