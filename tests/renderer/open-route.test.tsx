// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bridge, IpcResult } from '../../src-shared/ipc/channels';
import { bridgeGlobalName } from '../../src-shared/ipc/bridge-global';
import { clearNotices } from '../../src-renderer/app/toaster';
import { openRoute } from '../../src-renderer/features/contracts/openRoute';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';

// Issue 29: in the desktop app a new-window action opens one window through the shell and the
// opener stays where it was (its unsaved edits with it); only the browser edition uses window.open.

initI18n('en');
const globals = window as unknown as Record<string, unknown>;
afterEach(async () => {
  cleanup();
  delete globals[bridgeGlobalName];
  vi.restoreAllMocks();
  await clearNotices();
});

function desktopBridge(answer: IpcResult<null>) {
  const openWindow = vi.fn(async (_route: string) => answer);
  const bridge: Bridge = { invoke: vi.fn(), on: () => () => undefined, openWindow };
  globals[bridgeGlobalName] = bridge;
  return openWindow;
}

/** A page with an unsaved edit and a 'view' that opens a contract in a new window. */
function Opener() {
  const navigate = useNavigate();
  const location = useLocation();
  const [draft, setDraft] = useState('');
  return (
    <>
      <span data-testid="where">{location.pathname + location.search}</span>
      <input data-testid="draft" value={draft} onChange={(event) => setDraft(event.target.value)} />
      <button onClick={() => openRoute('/myContract/detail?contractId=c-3', (to) => void navigate(to), { newWindow: true })}>view</button>
    </>
  );
}

function renderOpener() {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/standingBook/detail?id=c-1']}>
        <Routes>
          <Route path="*" element={<Opener />} />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('opening a route in a new window', () => {
  it('in the desktop app asks the shell once, never window.open, and the opener keeps its page and its edits', async () => {
    const openWindow = desktopBridge({ ok: true, data: null });
    const windowOpen = vi.spyOn(window, 'open');
    renderOpener();
    await userEvent.type(screen.getByTestId('draft'), 'unsaved');
    await userEvent.click(screen.getByText('view'));
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(openWindow).toHaveBeenCalledWith('/myContract/detail?contractId=c-3');
    expect(windowOpen).not.toHaveBeenCalled();
    expect(screen.getByTestId('where').textContent).toBe('/standingBook/detail?id=c-1');
    expect(screen.getByTestId<HTMLInputElement>('draft').value).toBe('unsaved');
  });

  it('in the desktop app says why when the shell refuses, and still does not navigate', async () => {
    desktopBridge({ ok: false, error: { code: 'bad_request', message: 'This page cannot be opened: unknown route /x.' } });
    renderOpener();
    await userEvent.click(screen.getByText('view'));
    await vi.waitFor(() => expect(document.querySelector('.bp6-toast-container')?.textContent).toContain(i18n.t('errors.bad_request')));
    expect(screen.getByTestId('where').textContent).toBe('/standingBook/detail?id=c-1');
  });

  it('in a browser opens a tab, and opens the route in place only when the tab is refused', async () => {
    const windowOpen = vi.spyOn(window, 'open').mockReturnValueOnce({ opener: window } as unknown as Window).mockReturnValueOnce(null);
    renderOpener();
    await userEvent.click(screen.getByText('view'));
    expect(windowOpen).toHaveBeenCalledWith('/myContract/detail?contractId=c-3', '_blank');
    expect(screen.getByTestId('where').textContent).toBe('/standingBook/detail?id=c-1');
    await userEvent.click(screen.getByText('view'));
    expect(screen.getByTestId('where').textContent).toBe('/myContract/detail?contractId=c-3');
  });
});
