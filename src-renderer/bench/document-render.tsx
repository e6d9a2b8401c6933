import '../zod-config';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@fontsource-variable/noto-sans-sc';
import '../app/app.css';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createRoot, type Root } from 'react-dom/client';
import type { Bridge, IpcResult } from '../../src-shared/ipc/channels';
import type { DocumentRenderBench } from '../../bench/fixtures/document-render-page';
import { createAppStore } from '../app/store';
import { ContractDocumentTab } from '../features/contract-document/ContractDocumentTab';
import { i18n, initI18n } from '../i18n/i18n';

// The page `bench/document-render.bench.ts` drives in Chromium (a separate vite entry, never part
// of the app's bundle): the contract page's real document tab over a bridge that answers with a
// filled 20-page document at once (the core's fill is timed in Node), timed in the page from the
// tab's mount to the first frame painted after docx-preview put the pages in.

declare global {
  interface Window {
    documentRenderBench: DocumentRenderBench;
  }
}

initI18n('en');
let bytes = new Uint8Array();
const container = document.getElementById('root')!;
let root: Root | null = null;
let revision = 0;

const answer = (data: unknown): IpcResult<never> => ({ ok: true, data } as IpcResult<never>);
const bridge: Bridge = {
  invoke: async (channel, request) => {
    if (channel === 'contractDocument.produce') return answer({ size: bytes.length, name: 'bench.docx' });
    if (channel === 'contractDocument.read') {
      const { offset } = request as { offset: number };
      const piece = bytes.subarray(offset, offset + 512 * 1024);
      let binary = '';
      for (let start = 0; start < piece.length; start += 0x2000) binary += String.fromCharCode(...piece.subarray(start, start + 0x2000));
      return answer({ data: btoa(binary), size: bytes.length });
    }
    return { ok: false, error: { code: 'unknown_channel', message: channel } };
  },
  on: () => () => undefined,
};
const store = createAppStore(bridge);

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

window.documentRenderBench = {
  setDocument(base64) {
    const binary = atob(base64);
    bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  },
  async firstPaint() {
    root?.unmount();
    root = createRoot(container);
    revision += 1;
    const start = performance.now();
    root.render(
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <ContractDocumentTab contractId="bench" revision={String(revision)} hasDocument active />
        </I18nextProvider>
      </Provider>,
    );
    for (;;) {
      await frame();
      const phase = container.querySelector<HTMLElement>('[data-testid="contract-document"]')?.dataset.phase;
      if (phase === 'failed') throw new Error('the bench document could not be shown');
      if (phase === 'shown') break;
    }
    // The frame after the pages went in is the one that paints them.
    await frame();
    return { ms: performance.now() - start, pages: container.querySelectorAll('section.docx').length };
  },
};
