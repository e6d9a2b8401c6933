// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import type { Performance } from '../../src-shared/domain/performance';
import type { SessionInfo } from '../../src-shared/ipc/channels';
import { defaultPerformanceForm } from '../../src-shared/rules/performance';
import { createAppStore } from '../../src-renderer/app/store';
import { DefinitionsScreen } from '../../src-renderer/features/definitions/DefinitionsScreen';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, Refusal, signedInStaff } from './support/fake-bridge';

// The performance definitions screen (issue 28 item 1) on a fake core: the editor's checks in the
// user's language before anything is sent, a write refused offline shown at once in that language,
// and staff reading the list only.

initI18n('en');
afterEach(cleanup);
// The app's toasts outlive the screens: gone before the environment is.
afterAll(clearNotices, 10_000);
beforeEach(() => i18n.changeLanguage('en'));

const admin: SessionInfo = {
  signedIn: true,
  serverUrl: 'http://127.0.0.1:8787',
  user: { id: 'u-admin', username: 'admin', displayName: 'Admin', role: 'admin', departmentId: 'd-legal', departmentName: 'Legal' },
};
const receivable: Performance = {
  id: '0190c0de-0000-7000-8000-0000000000b1', name: '收款履约', type: 'receivable', ...defaultPerformanceForm('receivable'), sortOrder: 0,
  updateTime: '2026-05-15T02:00:00.000Z', version: 1,
};
const asOf = '2026-11-20T08:00:00.000Z';

function renderScreen(session: SessionInfo, onlineCall: () => unknown) {
  const { bridge, calls } = fakeBridge({
    'session.get': () => session,
    'cached.read': (request) => ({
      value: request.endpoint === 'performanceDefaultForm' ? defaultPerformanceForm('receivable') : { performanceList: [receivable] },
      asOf,
      offline: false,
    }),
    'online.call': onlineCall as never,
  });
  const router = createMemoryRouter([{ path: '/settings/performances', element: <DefinitionsScreen /> }], { initialEntries: ['/settings/performances'] });
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
  return calls;
}

async function openEditor() {
  fireEvent.click(await screen.findByTestId('definitions-create'));
  await waitFor(() => expect(screen.getAllByTestId('definition-column')).toHaveLength(6));
  return screen.getByRole('dialog');
}

describe('the performance definitions screen', () => {
  it('checks a new definition before sending it, saying what is wrong in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    const calls = renderScreen(admin, () => ({}));
    const dialog = await openEditor();
    expect(within(dialog).getAllByRole('textbox', { name: '列名称' }).map((input) => (input as HTMLInputElement).value)).toEqual([
      '履约内容', '履约日期', '应收金额', '任务负责人', '任务状态', '备注',
    ]);
    for (const type of ['text', 'multiselect']) {
      fireEvent.click(within(dialog).getByTestId('definition-add-column'));
      const added = within(dialog).getAllByTestId('definition-column').at(-1)!;
      fireEvent.change(within(added).getByRole('combobox', { name: '类型' }), { target: { value: type } });
      fireEvent.change(within(added).getByRole('textbox', { name: '列名称' }), { target: { value: '验收等级' } });
    }
    fireEvent.click(within(dialog).getByTestId('dialog-submit'));
    await waitFor(() => expect(within(dialog).getByText('请输入名称')).toBeTruthy());
    expect(within(dialog).getAllByTestId('definition-row-issue').map((issue) => issue.textContent)).toEqual(['列名称不能重复 选项至少需要一个']);
    expect(calls('online.call')).toEqual([]);
  });

  it('sets the options the sheet rules read: the contract field a column follows, a value range, reference nodes; a rule no value meets is refused in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    const calls = renderScreen(admin, () => ({}));
    const dialog = await openEditor();
    fireEvent.change(dialog.querySelector('#definition-name')!, { target: { value: '押金履约' } });
    const addColumn = (type: string, name: string) => {
      fireEvent.click(within(dialog).getByTestId('definition-add-column'));
      const added = within(dialog).getAllByTestId('definition-column').at(-1)!;
      fireEvent.change(within(added).getByRole('combobox', { name: '类型' }), { target: { value: type } });
      fireEvent.change(within(added).getByRole('textbox', { name: '列名称' }), { target: { value: name } });
      return () => within(dialog).getAllByTestId('definition-column').find((row) => within(row).getByRole<HTMLInputElement>('textbox', { name: '列名称' }).value === name)!;
    };
    // A money column follows the contract amount (only fields of its kind are offered) and takes a range no value meets.
    const deposit = addColumn('money', '押金');
    const related = within(deposit()).getByRole<HTMLSelectElement>('combobox', { name: '关联合同字段: 押金' });
    expect([...related.options].map((option) => option.text)).toEqual(['不关联（手动填写）', '合同金额']);
    fireEvent.change(related, { target: { value: 'amount' } });
    fireEvent.click(within(deposit()).getByTestId('definition-add-range'));
    fireEvent.click(within(deposit()).getByRole('button', { name: '添加条件' }));
    const [first, second] = within(deposit()).getAllByTestId('definition-range-condition');
    fireEvent.change(within(first!).getByRole('textbox', { name: '值' }), { target: { value: '100' } });
    fireEvent.change(within(second!).getByRole('combobox', { name: '比较方式' }), { target: { value: 'less' } });
    fireEvent.change(within(second!).getByRole('textbox', { name: '值' }), { target: { value: '50' } });
    // A date column follows the signing date; a performance time refers to nodes of its own.
    const signed = addColumn('date', '签订于');
    fireEvent.change(within(signed()).getByRole('combobox', { name: '关联合同字段: 签订于' }), { target: { value: 'signDate' } });
    const due = addColumn('performanceTime', '验收后');
    const nodes = within(due()).getByRole('textbox', { name: '参照节点: 验收后' });
    fireEvent.change(nodes, { target: { value: '验收' } });
    fireEvent.keyDown(nodes, { key: 'Enter' });

    fireEvent.click(within(dialog).getByTestId('dialog-submit'));
    await waitFor(() => expect(within(dialog).getAllByTestId('definition-row-issue').map((issue) => issue.textContent)).toEqual(['取值范围无效']));
    expect(calls('online.call')).toEqual([]);
    // Or instead of and: some value meets it, and the definition goes with every option set.
    fireEvent.change(within(deposit()).getByRole('combobox', { name: '条件组合方式' }), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByTestId('dialog-submit'));
    await waitFor(() => expect(calls('online.call')).toHaveLength(1));
    const sent = (calls('online.call')[0] as { body: { columns: { name: string; config?: unknown }[] } }).body.columns;
    const configOf = (name: string) => sent.find((column) => column.name === name)?.config;
    expect(configOf('押金')).toEqual({ relatedFieldId: 'amount', valueRange: { mode: 2, conditions: [{ comparator: 'greater', value: '100' }, { comparator: 'less', value: '50' }] } });
    expect(configOf('签订于')).toEqual({ relatedFieldId: 'signDate' });
    expect(configOf('验收后')).toEqual({ referenceNodes: [{ id: expect.stringMatching(/^node-/), name: '验收' }] });
  });

  it('drops the options a column type has no use for when the type changes', async () => {
    const calls = renderScreen(admin, () => ({}));
    const dialog = await openEditor();
    fireEvent.change(dialog.querySelector('#definition-name')!, { target: { value: 'Typed' } });
    fireEvent.click(within(dialog).getByTestId('definition-add-column'));
    const added = () => within(dialog).getAllByTestId('definition-column').at(-1)!;
    fireEvent.change(within(added()).getByRole('combobox', { name: 'Type' }), { target: { value: 'number' } });
    fireEvent.click(within(added()).getByTestId('definition-add-range'));
    fireEvent.change(within(added()).getByRole('combobox', { name: 'Type' }), { target: { value: 'text' } });
    expect(within(added()).queryByTestId('definition-range')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('dialog-submit'));
    await waitFor(() => expect(calls('online.call')).toHaveLength(1));
    const sent = (calls('online.call')[0] as { body: { columns: { type: string; config?: unknown }[] } }).body.columns;
    expect(sent.at(-1)).toMatchObject({ type: 'text' });
    expect(sent.at(-1)!.config).toBeUndefined();
  });

  it('takes a column named as a default one reads in the user’s language for its twin', async () => {
    await i18n.changeLanguage('zh-CN');
    const calls = renderScreen(admin, () => ({}));
    const dialog = await openEditor();
    fireEvent.change(dialog.querySelector('#definition-name')!, { target: { value: '验收付款' } });
    fireEvent.click(within(dialog).getByTestId('definition-add-column'));
    fireEvent.change(within(within(dialog).getAllByTestId('definition-column').at(-1)!).getByRole('textbox', { name: '列名称' }), { target: { value: '备注' } });
    fireEvent.click(within(dialog).getByTestId('dialog-submit'));
    await waitFor(() => expect(within(dialog).getAllByTestId('definition-row-issue').map((issue) => issue.textContent)).toEqual(['列名称不能重复']));
    expect(calls('online.call')).toEqual([]);
  });

  it('shows a write refused offline at once, in the user’s language, and keeps the editor open', async () => {
    await i18n.changeLanguage('zh-CN');
    const calls = renderScreen(admin, () => new Refusal({ code: 'offline', message: 'offline' }));
    const dialog = await openEditor();
    fireEvent.change(dialog.querySelector('#definition-name')!, { target: { value: '验收付款' } });
    fireEvent.click(within(dialog).getByTestId('dialog-submit'));
    await waitFor(() => expect(within(dialog).getByTestId('dialog-failure').textContent).toBe(i18n.t('errors.offline')));
    expect(i18n.t('errors.offline')).toMatch(/[\u4e00-\u9fff]/);
    expect(calls('online.call')).toEqual([expect.objectContaining({ endpoint: 'performanceCreate', body: expect.objectContaining({ name: '验收付款', type: 'receivable' }) })]);
  });

  it('shows staff the list read-only', async () => {
    renderScreen(signedInStaff, () => ({}));
    await waitFor(() => expect(screen.getByTestId('definition-row').textContent).toContain('Receivable'));
    expect(screen.getByTestId('definitions-read-only')).toBeTruthy();
    expect(screen.queryByTestId('definitions-create')).toBeNull();
    expect(screen.queryByTestId('definition-edit')).toBeNull();
  });
});
