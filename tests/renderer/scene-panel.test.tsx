// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import { TaskState } from '../../src-shared/domain/enums';
import type { LedgerField, LedgerRow, LedgerSearch } from '../../src-shared/domain/ledger';
import { ledgerFieldCatalogue } from '../../src-shared/domain/ledger-fields';
import type { SceneView } from '../../src-shared/ipc/scenes';
import { createAppStore } from '../../src-renderer/app/store';
import { SceneConfigDialog } from '../../src-renderer/features/scenes/SceneConfigDialog';
import { ScenePanel } from '../../src-renderer/features/scenes/ScenePanel';
import { batchRows } from '../../src-renderer/features/scenes/SceneRows';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge } from './support/fake-bridge';

// A scene's tab (issue 28 items 6 and 8): the drawer starts from the scene's kept filter values and
// keeps new ones in the scene; a range takes 8 decimals and refuses a minimum above the maximum
// with the spec's message, clearing the edited side; cells show days, times, task types and
// states in the user's words; each row has its actions and a selection box.

initI18n('en');
afterEach(cleanup);
// The app's toasts outlive the screens: gone before the environment is.
afterAll(clearNotices, 10_000);

const fields: LedgerField[] = ledgerFieldCatalogue.map(({ kind: _kind, hasUnit: _hasUnit, ...field }) => field);

const scene: SceneView = {
  id: 'scene-1', name: 'Big receivables', isDefault: true, isSystem: false, performanceId: null,
  filterIDs: ['receivableAmount'], titleIDs: ['name', 'taskType', 'taskState', 'expirationTime', 'updateTime'],
  filter: [{ id: 'receivableAmount', type: 'money', condition: { gte: 100_00 } }], sortField: null, pending: false,
};

function row(id: string, type: string, taskState: number): LedgerRow {
  return {
    id, data: { name: `Task ${id}`, taskType: type, taskState, expirationTime: '2026-11-22', updateTime: '2026-11-20T08:05:00.000Z' }, fieldSnapShot: {},
    contractID: `c-${id}`, contractName: `Contract ${id}`, performanceId: 'p-1', templateName: null, contractTypeName: null, status: 4, type, taskState,
    receivableTime: null, payableTime: null, invoiceTime: null, expirationTime: '2026-11-22', recallTime: null, performanceTime: '2026-11-22',
    updateTime: '2026-11-20T08:05:00.000Z', createTime: '2026-11-01T08:00:00.000Z',
  };
}

const rows = [row('t1', 'custom', TaskState.InProgress), row('t2', 'receivable', TaskState.Success)];

async function renderScene(language: 'en' | 'zh-CN', shownScene: SceneView = scene) {
  await i18n.changeLanguage(language);
  const fake = fakeBridge({
    'ledger.search': () => ({ list: rows, count: rows.length }),
    'scene.update': () => ({ mutationId: 'm-1' }),
  });
  render(
    <Provider store={createAppStore(fake.bridge)}>
      <I18nextProvider i18n={i18n}>
        <ScenePanel scene={shownScene} fields={fields} />
      </I18nextProvider>
    </Provider>,
  );
  await screen.findAllByTestId('scene-row');
  return { searches: () => fake.calls('ledger.search') as LedgerSearch[], updates: () => fake.calls('scene.update') };
}

describe("a scene's tab", () => {
  it('shows its kept filter values in the drawer and keeps edited ones in the scene', async () => {
    const { searches, updates } = await renderScene('en');
    // Opened: the core applies the kept values; the request adds none.
    expect(searches()[0]).toMatchObject({ standingBookID: 'scene-1', filterList: [] });
    fireEvent.click(screen.getByTestId('scene-filter-toggle'));
    const minimum = screen.getByTestId('scene-filter-receivableAmount-gte') as HTMLInputElement;
    expect(minimum.value).toBe('100');

    fireEvent.change(minimum, { target: { value: '250.123456789' } });
    expect(minimum.value).toBe('250.12345678');
    fireEvent.click(screen.getByTestId('scene-search'));
    await waitFor(() => expect(searches().at(-1)!.filterList).toEqual([{ id: 'receivableAmount', type: 'money', condition: { gte: 25012.345678 } }]));

    fireEvent.click(screen.getByTestId('scene-keep-filters'));
    await waitFor(() => expect(updates()).toEqual([{ id: 'scene-1', patch: { filter: [{ id: 'receivableAmount', type: 'money', condition: { gte: 25012.345678 } }] } }]));
  });

  it('opens sorted as the scene keeps it, and keeps a column sorted here only by its own action', async () => {
    const { searches, updates } = await renderScene('en', { ...scene, sortField: { id: 'expirationTime', key: -1 } });
    const sortOf = (id: string) => screen.getByTestId(`scene-column-${id}`).getAttribute('aria-sort');
    // Opened: the header shows the kept sort; the core applies it, the request names none.
    expect(sortOf('expirationTime')).toBe('descending');
    expect(screen.getByTestId('scene-sort-shown').textContent).toBe('Sorted by Expiration time, descending');
    expect(searches()[0]).not.toHaveProperty('sortField');
    expect(screen.queryByTestId('scene-keep-sort')).toBeNull();

    fireEvent.click(within(screen.getByTestId('scene-column-taskState')).getByRole('button'));
    await waitFor(() => expect(searches().at(-1)!.sortField).toEqual({ id: 'taskState', key: 1 }));
    expect(sortOf('taskState')).toBe('ascending');
    expect(sortOf('expirationTime')).toBe('none');
    expect(screen.getByTestId('scene-sort-shown').textContent).toBe('Sorted by Task state, ascending');
    expect(updates()).toEqual([]);
    const keep = screen.getByTestId('scene-keep-sort');
    expect(keep.textContent).toBe('Keep sort in scene');
    fireEvent.click(keep);
    await waitFor(() => expect(updates()).toEqual([{ id: 'scene-1', patch: { sortField: { id: 'taskState', key: 1 } } }]));
    expect(await screen.findByText('The sort is kept in the scene')).toBeTruthy();
  });

  it('asks no sort over the kept one once its column is sorted back to none, and keeps that too (Chinese)', async () => {
    const { searches, updates } = await renderScene('zh-CN', { ...scene, sortField: { id: 'expirationTime', key: -1 } });
    expect(screen.getByTestId('scene-sort-shown').textContent).toBe('按到期时间降序');
    fireEvent.click(within(screen.getByTestId('scene-column-expirationTime')).getByRole('button'));
    await waitFor(() => expect(searches().at(-1)!.sortField).toBeNull());
    expect(screen.getByTestId('scene-column-expirationTime').getAttribute('aria-sort')).toBe('none');
    expect(screen.queryByTestId('scene-sort-shown')).toBeNull();
    const keep = screen.getByTestId('scene-keep-sort');
    expect(keep.textContent).toBe('保存排序到场景');
    fireEvent.click(keep);
    await waitFor(() => expect(updates()).toEqual([{ id: 'scene-1', patch: { sortField: null } }]));
    expect(await screen.findByText('场景已取消按列排序')).toBeTruthy();
  });

  it('refuses a minimum above the maximum with the spec message and clears the edited side', async () => {
    const { searches } = await renderScene('zh-CN');
    fireEvent.click(screen.getByTestId('scene-filter-toggle'));
    const maximum = screen.getByTestId('scene-filter-receivableAmount-lte') as HTMLInputElement;
    fireEvent.change(maximum, { target: { value: '50' } });
    expect(screen.getByTestId('scene-filter-receivableAmount-problem').textContent).toBe('最小值不能大于最大值');
    const asked = searches().length;
    fireEvent.submit(screen.getByTestId('scene-filters'));
    fireEvent.blur(maximum);
    expect(maximum.value).toBe('');
    expect(screen.queryByTestId('scene-filter-receivableAmount-problem')).toBeNull();
    // The inverted range was never asked.
    expect(searches()).toHaveLength(asked);
  });

  it('writes days, times, task types and states in the user language, with each row its actions', async () => {
    await renderScene('zh-CN');
    const [first, second] = screen.getAllByTestId('scene-row');
    const texts = (tr: HTMLElement) => [...tr.querySelectorAll('td')].map((cell) => cell.textContent);
    expect(texts(first!).slice(1, 6)).toEqual(['Task t1', '自定义', '履约中', '2026年11月22日', expect.stringMatching(/^2026年11月20日 \d\d:05$/)]);
    expect(texts(second!)[3]).toBe('已完成');
    expect(within(first!).getByTestId('scene-row-view').getAttribute('href')).toBe('/standingBook/detail?contractId=c-t1&mode=contract');
    expect(within(first!).getByTestId('scene-row-view').getAttribute('target')).toBe('_blank');
    expect(within(first!).queryByTestId('scene-row-finish')).not.toBeNull();
    expect(within(second!).queryByTestId('scene-row-finish')).toBeNull();
    expect(within(second!).queryByTestId('scene-row-details')).not.toBeNull();
    expect(first!.querySelector('td.scene-table__select input[type=checkbox]')).not.toBeNull();
  });
});

describe("a scene's batch finish", () => {
  const inChange = { ...row('t3', 'payable', TaskState.Overdue), status: 2 as const };
  const otherPerformance = { ...row('t4', 'payable', TaskState.NotStarted), performanceId: 'p-2' };

  it('takes the chosen pending or overdue rows, never a finished one nor one whose contract is being changed', () => {
    expect(batchRows([rows[0]!, rows[1]!, inChange])).toEqual([rows[0]]);
    expect(batchRows([rows[1]!, inChange])).toBe('noneFinishable');
  });

  it("takes one performance's tasks at a time", () => {
    expect(batchRows([rows[0]!, otherPerformance])).toBe('onePerformance');
    expect(batchRows([{ ...rows[0]!, performanceId: null }])).toBe('onePerformance');
  });
});

describe('the scene config dialog', () => {
  it('warns of a duplicate scene name (a warning, not an error) and saves nothing', async () => {
    await i18n.changeLanguage('zh-CN');
    const fake = fakeBridge({ 'scene.create': () => ({ id: 's-2', mutationId: 'm-2' }) });
    render(
      <Provider store={createAppStore(fake.bridge)}>
        <I18nextProvider i18n={i18n}>
          <SceneConfigDialog scene={null} scenes={[scene]} fields={fields} onClose={() => undefined} />
        </I18nextProvider>
      </Provider>,
    );
    fireEvent.change(screen.getByTestId('scene-config-name'), { target: { value: ' Big receivables ' } });
    fireEvent.click(screen.getByTestId('scene-config-save'));
    const helper = await screen.findByText('筛选场景名称重复');
    expect(helper.closest('.bp6-form-group')!.className).toContain('bp6-intent-warning');
    fireEvent.change(screen.getByTestId('scene-config-name'), { target: { value: '' } });
    expect(screen.getByText('场景名称不能为空').closest('.bp6-form-group')!.className).toContain('bp6-intent-danger');
    expect(fake.calls('scene.create')).toEqual([]);
  });
});
