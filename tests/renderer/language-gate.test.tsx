// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectionChanged } from '../../src-renderer/bridge/connectionSlice';
import { createAppStore } from '../../src-renderer/app/store';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { LanguageGate } from '../../src-renderer/i18n/LanguageGate';
import { fakeBridge } from './support/fake-bridge';

// The page tells the core the language it shows (issue 31): in the web edition the page follows
// the browser while the core's host process may speak another, and the core's own words
// (reminders, the contract document's values) must be the page's.

initI18n('en');
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

function renderGate(settingsLanguage: 'en' | 'zh-CN' | null) {
  const { bridge, calls } = fakeBridge({ 'settings.get': () => ({ serverUrl: null, language: settingsLanguage, archiveCacheMegabytes: 512 }) });
  const store = createAppStore(bridge);
  render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <LanguageGate>
          <p>ready</p>
        </LanguageGate>
      </I18nextProvider>
    </Provider>,
  );
  return { store, told: () => calls('app.pageLanguage') };
}

describe('the page tells the core its language', () => {
  it("tells the browser's language in the web edition when none is chosen, and again after a reconnection", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['zh-CN', 'en']);
    const { store, told } = renderGate(null);
    await screen.findByText('ready');
    expect(i18n.language).toBe('zh-CN');
    expect(told()).toEqual([{ language: 'zh-CN' }]);
    // A restarted web host's core has forgotten it: told again once the line reopens.
    act(() => void store.dispatch(connectionChanged('reconnecting')));
    act(() => void store.dispatch(connectionChanged('open')));
    await waitFor(() => expect(told()).toEqual([{ language: 'zh-CN' }, { language: 'zh-CN' }]));
  });

  it("tells the chosen language over the browser's", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['zh-CN']);
    const { told } = renderGate('en');
    await screen.findByText('ready');
    expect(told()).toEqual([{ language: 'en' }]);
  });
});
