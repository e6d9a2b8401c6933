// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneView } from '../../src-shared/ipc/scenes';
import { createAppStore } from '../../src-renderer/app/store';
import { ManageScenesDialog } from '../../src-renderer/features/scenes/ManageScenesDialog';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge } from './support/fake-bridge';

// The manage-scenes dialog's drag and drop as a screen reader hears it (issue 31): the
// instructions and each announcement in the user's language, naming the scene and its place,
// never dnd-kit's English words with the scene's id.

initI18n('zh-CN');
afterEach(cleanup);

const scene = (id: string, name: string): SceneView => ({
  id, name, isDefault: false, isSystem: false, performanceId: null, filterIDs: [], titleIDs: ['name'], filter: [], sortField: null, pending: false,
});
const scenes = [scene('0b6f1c52-1d57-4c0e-9a55-3f3f4a5e8c11', '大额应收'), scene('7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6', '本月到期')];

async function pickUpFirst(language: 'en' | 'zh-CN') {
  await i18n.changeLanguage(language);
  const fake = fakeBridge({});
  render(
    <Provider store={createAppStore(fake.bridge)}>
      <I18nextProvider i18n={i18n}>
        <ManageScenesDialog scenes={scenes} onEdit={() => undefined} onClose={() => undefined} />
      </I18nextProvider>
    </Provider>,
  );
  const handle = (await screen.findAllByRole('button', { name: i18n.t('scenes.manageDialog.dragHandle') }))[0]!;
  handle.focus();
  await act(async () => {
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
  });
  const live = document.querySelector('[aria-live="assertive"]');
  return { handle, announced: live?.textContent ?? '', instructions: document.getElementById(handle.getAttribute('aria-describedby') ?? '')?.textContent ?? '' };
}

describe('the manage-scenes drag and drop for a screen reader', () => {
  it('speaks Chinese with the scene name and place, never an id', async () => {
    const { handle, announced, instructions } = await pickUpFirst('zh-CN');
    // Picked up, it is over its own place at once: the last announcement says so.
    expect(announced).toBe('场景“大额应收”移到第 1 位（共 2 个）。');
    expect(instructions).toContain('按空格键');
    expect(handle.getAttribute('aria-roledescription')).toBe('可排序的场景');
    expect(`${announced}${instructions}`).not.toMatch(/[0-9a-f]{8}-|draggable/i);
  });

  it('speaks English in the English UI', async () => {
    const { announced, instructions } = await pickUpFirst('en');
    expect(announced).toBe('The scene "大额应收" is over place 1 of 2.');
    expect(instructions).toMatch(/^To pick up a scene/);
  });
});
