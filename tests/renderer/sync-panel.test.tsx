// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import { TaskState } from '../../src-shared/domain/enums';
import type { Bridge, SyncProblem, SyncStatus } from '../../src-shared/ipc/channels';
import { entityFieldGroups, type VersionedEntity } from '../../src-shared/sync/field-versions';
import { createAppStore } from '../../src-renderer/app/store';
import { fieldLabel, fieldValue } from '../../src-renderer/features/sync/problemFields';
import { SyncPanel } from '../../src-renderer/features/sync/SyncPanel';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';

// The sync panel's per-field view of a problem for every entity kind: each field group by its
// label in the UI's language, each value as the screens show it (states, types, dates, amounts,
// lists summarised), the row by its name. A raw field key or catalog key on screen is a bug.

initI18n('en');
afterEach(cleanup);
// The app's toasts outlive the screens: gone before the environment is.
afterAll(clearNotices, 10_000);

const base = { createdAt: '2026-11-23T09:00:00.000Z', error: { code: 'conflict' as const, message: 'changed by someone else since you edited it' }, fieldNames: {}, valueNames: {} };

const taskConflict: SyncProblem = {
  ...base,
  id: 'm-task',
  name: 'performance.savePlan',
  rowId: '0190c0de-0000-7000-8000-00000000f0aa',
  state: 'conflict',
  entity: 'performanceTask',
  subject: 'Second instalment',
  changes: { expirationTime: '2026-12-31', amount: 1_250_000, 'value:site': 'North yard', type: 'payment', state: TaskState.InProgress, level: 2 },
  theirs: { expirationTime: '2027-01-15', amount: 1_300_000, 'value:site': 'South yard', type: 'receivable', state: TaskState.Overdue, level: 3 },
  conflicting: ['expirationTime', 'value:site'],
  fieldNames: { 'value:site': 'Delivery site' },
};

const planConflict: SyncProblem = {
  ...base,
  id: 'm-plan',
  name: 'performance.savePlan',
  rowId: '0190c0de-0000-7000-8000-00000000f0aa',
  state: 'conflict',
  entity: 'performancePlan',
  subject: 'Steel deliveries',
  changes: { schedule: { cycle: 'month', startDate: '2026-01-01', endDate: '2026-12-31', amount: '1200', direction: 'receivable', name: 'Rent' }, rows: 3, removed: 1 },
  theirs: { schedule: null, rows: null, removed: null },
  conflicting: ['schedule'],
};

const sceneConflict: SyncProblem = {
  ...base,
  id: 'm-scene',
  name: 'scene.update',
  rowId: '0190c0de-0000-7000-8000-00000000f0aa',
  state: 'conflict',
  entity: 'scene',
  subject: 'Q1 receivables',
  changes: { name: 'Q1 receivables (mine)', titleIDs: ['name', 'taskState', 'expirationTime', 'receivableAmount', 'taskLeader'], filter: [{}, {}], sortField: { id: 'expirationTime', key: -1 }, isDefault: true },
  theirs: { name: 'Q1 receivables (theirs)', titleIDs: ['name', 'taskState'], filter: [{}], sortField: { id: 'taskState', key: 1 }, isDefault: false },
  conflicting: ['name'],
};

const remindersRejected: SyncProblem = {
  ...base,
  id: 'm-reminders',
  name: 'performance.reminderSettings',
  rowId: '0190c0de-0000-7000-8000-00000000f0aa',
  state: 'rejected',
  entity: 'reminderSettings',
  subject: null,
  changes: { receivableTask: { timeNode: { reminderTypes: ['threeDaysBefore', 'other'], otherTimes: ['oneMonth'] }, condition: { reminderType: 'weekly' }, overTime: { reminderType: 'daily' }, reminderTime: '09:30' } },
  theirs: null,
  conflicting: [],
};

/** Ids of other records, each shown by the name the replica knows; a type it does not know is said so, never shown raw. */
const contractConflict: SyncProblem = {
  ...base,
  id: 'm-contract',
  name: 'contract.update',
  rowId: '0190c0de-0000-7000-8000-00000000f0aa',
  state: 'conflict',
  entity: 'contract',
  subject: 'Steel supply 2027',
  changes: { contractTypeId: 'ct-0192-goods', 'form:f-0192-site': 'North yard' },
  theirs: { contractTypeId: 'ct-0192-services', 'form:f-0192-site': 'South yard' },
  conflicting: ['form:f-0192-site'],
  fieldNames: { 'form:f-0192-site': '交货地点' },
  valueNames: { contractTypeId: { 'ct-0192-goods': '货物采购' } },
};

const scenePerformance: SyncProblem = {
  ...base,
  id: 'm-scene-performance',
  name: 'scene.update',
  rowId: '0190c0de-0000-7000-8000-00000000f0aa',
  state: 'rejected',
  entity: 'scene',
  subject: 'Steel receivables',
  changes: { performanceId: 'perf-0192-steel' },
  theirs: null,
  conflicting: [],
  valueNames: { performanceId: { 'perf-0192-steel': 'Steel deliveries' } },
};

/** The raw ids of those problems: none may reach the screen. */
const rawId = /ct-0192|f-0192|perf-0192/;

const status = (problems: SyncProblem[]): SyncStatus => ({
  online: true, phase: 'idle', lastSyncAt: null, pulled: 0, remaining: null, firstSync: false, queued: problems.length, oldestQueuedAt: null, waiting: [], problems, error: null,
});

const dismissed: unknown[] = [];
const bridge: Bridge = {
  invoke: async (channel, request) => {
    if (channel !== 'sync.dismiss') return { ok: false, error: { code: 'unknown_channel', message: channel } };
    dismissed.push(request);
    return { ok: true, data: status([]) } as never;
  },
  on: () => () => undefined,
};

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

async function renderPanel(language: 'en' | 'zh-CN', problems: SyncProblem[]) {
  await i18n.changeLanguage(language);
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <Routes>
            <Route path="*" element={<><SyncPanel status={status(problems)} /><Where /></>} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
  return screen.getAllByTestId('sync-problem');
}

/** Each shown field row as its cells' texts: label, mine, theirs. */
const rowsOf = (problem: HTMLElement) =>
  [...problem.querySelectorAll('[data-testid=sync-problem-field]')].map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent));

/** Field keys, prefixed groups and catalog paths: none may reach the screen. */
const rawKey = /\b(?:expirationTime|titleIDs|filterIDs|isDefault|rowIndex|receivableTask|value:|form:|syncMerge\.|taskState\.|scenes\.)/;

describe('sync panel problems per field', () => {
  it('shows a task conflict per field in English: labels, state and type names, dates, amounts, the column by its name', async () => {
    const [task] = await renderPanel('en', [taskConflict]);
    expect(task!.textContent).toContain('Second instalment');
    expect(rowsOf(task!)).toEqual([
      ['Due date', '31 Dec 2026', '15 Jan 2027'],
      ['Amount', '12,500.00', '13,000.00'],
      ['Delivery site', 'North yard', 'South yard'],
      ['Task type', 'Payment', 'Receivable'],
      ['Task state', 'In progress', 'Overdue'],
      ['Level', 'Level 2', 'Level 3'],
    ]);
    expect([...task!.querySelectorAll('[data-conflicting=true] td:first-child')].map((cell) => cell.textContent)).toEqual(['Due date', 'Delivery site']);
    expect(task!.textContent).not.toMatch(rawKey);
  });

  it('shows plan, scene and reminder problems in English with every value summarised', async () => {
    const [plan, scene, reminders] = await renderPanel('en', [planConflict, sceneConflict, remindersRejected]);
    expect(plan!.textContent).toContain('Steel deliveries');
    expect(rowsOf(plan!)).toEqual([
      ['Periodic schedule', 'Monthly, 1 Jan 2026 to 31 Dec 2026', '--'],
      ['Sheet rows', '3 rows', '--'],
      ['Rows removed', '1 row', '--'],
    ]);
    expect(rowsOf(scene!)).toEqual([
      ['Scene name', 'Q1 receivables (mine)', 'Q1 receivables (theirs)'],
      ['Columns', 'Performance name, Task state, Expiration time, +2 more', 'Performance name, Task state'],
      ['Preset filters', '2 conditions', '1 condition'],
      ['Sort', 'Expiration time, descending', 'Task state, ascending'],
      ['Default scene', 'Yes', 'No'],
    ]);
    expect(reminders!.textContent).toContain('Your reminder settings');
    expect(rowsOf(reminders!)).toEqual([['Receivable task', '3 days before, 1 month before, at 09:30']]);
    for (const problem of [plan, scene, reminders]) expect(problem!.textContent).not.toMatch(rawKey);
  });

  it('shows the same problems in Simplified Chinese, with no English field name or raw key', async () => {
    const problems = await renderPanel('zh-CN', [taskConflict, planConflict, sceneConflict, remindersRejected]);
    const [task, plan, scene, reminders] = problems.map(rowsOf);
    expect(task).toEqual([
      ['到期日期', '2026年12月31日', '2027年01月15日'],
      ['金额', '12,500.00', '13,000.00'],
      ['Delivery site', 'North yard', 'South yard'],
      ['任务类型', '付款', '应收'],
      ['任务状态', expect.any(String), expect.any(String)],
      ['等级', '2 级', '3 级'],
    ]);
    expect(plan![0]![0]).toBe('周期计划');
    expect(plan![1]).toEqual(['履约表行', '3 行', '--']);
    expect(plan![2]).toEqual(['删除的行', '1 行', '--']);
    expect(scene!.map((row) => row[0])).toEqual(['场景名称', '列', '预设筛选', '排序', '默认场景']);
    expect(scene![3]).toEqual(['排序', '到期时间，降序', '任务状态，升序']);
    expect(scene![4]).toEqual(['默认场景', '是', '否']);
    expect(reminders![0]![0]).toBe('收款任务');
    for (const problem of problems) expect(problem.textContent).not.toMatch(rawKey);
    expect(problems[3]!.textContent).toContain('你的提醒设置');
    // A conflict shown per field carries no English words of the server's.
    for (const problem of problems.slice(0, 3)) expect(problem.querySelector('.sync-panel__problem-error')!.textContent).not.toMatch(/[a-z]{4,}/);
  });

  it("names a contract's type, its form fields and a scene's performance by the replica's names, in both languages", async () => {
    const [contract, scene] = await renderPanel('en', [contractConflict, scenePerformance]);
    expect(rowsOf(contract!)).toEqual([
      ['Contract type', '货物采购', 'Not known on this device'],
      ['交货地点', 'North yard', 'South yard'],
    ]);
    expect(rowsOf(scene!)).toEqual([['Performance', 'Steel deliveries']]);
    for (const problem of [contract, scene]) expect(problem!.textContent).not.toMatch(rawId);
    cleanup();
    const [contractZh, sceneZh] = await renderPanel('zh-CN', [contractConflict, scenePerformance]);
    expect(rowsOf(contractZh!)).toEqual([
      ['合同类型', '货物采购', '本机未收录'],
      ['交货地点', 'North yard', 'South yard'],
    ]);
    expect(rowsOf(sceneZh!)).toEqual([['履约', 'Steel deliveries']]);
    for (const problem of [contractZh, sceneZh]) expect(problem!.textContent).not.toMatch(rawId);
  });

  it('labels every field group of every entity kind in both languages', async () => {
    for (const language of ['en', 'zh-CN'] as const) {
      await i18n.changeLanguage(language);
      const t = i18n.getFixedT(language);
      for (const [entity, groups] of Object.entries(entityFieldGroups) as [VersionedEntity, readonly string[]][]) {
        for (const group of groups) {
          const field = group.replace(/:\*$/, ':x1');
          const label = fieldLabel(t, { entity, fieldNames: {} }, field);
          expect(label, `${language} ${entity} ${field}`).not.toMatch(rawKey);
          expect(label, `${language} ${entity} ${field}`).not.toBe(field);
          expect(fieldValue(t, { entity, fieldNames: {}, valueNames: {} }, field, null, language)).toBe('--');
        }
      }
    }
  });

  it("shows why the server refused an edit in the UI's language, from the error's reason", async () => {
    const refused: SyncProblem = {
      ...remindersRejected,
      id: 'm-refused',
      name: 'contract.update',
      entity: 'contract',
      subject: 'Steel supply 2027',
      changes: { name: 'Steel supply 2027 (b)' },
      error: {
        code: 'conflict',
        message: 'cannot submit a contract that is under approval: only a contract that is drafting or approval rejected can be',
        reason: { key: 'transitionRefused', params: { subject: 'contract', status: 2, stepDone: 'submit', allowed: [1, 3] } },
      },
    };
    const setAside: SyncProblem = {
      ...refused,
      id: 'm-set-aside',
      error: { code: 'bad_request', message: 'Set aside: unknown mutation "contract.merge" (written by another version of the app).', reason: { key: 'setAsideUnknown', params: { name: 'contract.merge' } } },
    };
    const newer: SyncProblem = { ...refused, id: 'm-newer', error: { code: 'conflict', message: 'a reason of a newer server', reason: { key: 'notInThisApp' } } };
    const detail = (problem: HTMLElement) => problem.querySelector('.sync-panel__problem-error')!.textContent;

    const [zh, zhAside, zhNewer] = await renderPanel('zh-CN', [refused, setAside, newer]);
    expect(detail(zh!)).toBe('审批中的合同不能提交：只有起草中或审批驳回的合同可以。');
    expect(detail(zhAside!)).toBe('已搁置：此修改由其他版本的应用排队（contract.merge），当前版本不认识它。');
    expect(detail(zhNewer!)).toBe(`${i18n.t('errors.conflict')} (a reason of a newer server)`);
    cleanup();
    const [en] = await renderPanel('en', [refused]);
    expect(detail(en!)).toBe('A contract that is under approval cannot be submitted: only a contract that is drafting or approval rejected can be.');
  });

  it('formats a form value as the form shows it: money with its unit, a type chosen in a form field by its name', async () => {
    const moneyConflict: SyncProblem = {
      ...contractConflict,
      changes: { 'form:f-0192-amount': { unit: 'CNY', amount: 196010025 }, 'form:f-0192-type': 'ct-0192-goods' },
      theirs: { 'form:f-0192-amount': { unit: 'CNY', amount: 196000000 }, 'form:f-0192-type': 'ct-0192-goods' },
      conflicting: ['form:f-0192-amount'],
      fieldNames: { 'form:f-0192-amount': 'Contract amount', 'form:f-0192-type': 'Contract type' },
      valueNames: { 'form:f-0192-type': { 'ct-0192-goods': 'Goods purchase' } },
    };
    const [contract] = await renderPanel('en', [moneyConflict]);
    expect(rowsOf(contract!)).toEqual([
      ['Contract amount', '1,960,100.25 CNY', '1,960,000.00 CNY'],
      ['Contract type', 'Goods purchase', 'Goods purchase'],
    ]);
    expect(contract!.textContent).not.toMatch(/[{}"]|ct-0192/);
  });

  it('opens a refused draft in its form to correct it, or discards it only once confirmed', async () => {
    const refusedDraft: SyncProblem = {
      ...remindersRejected,
      id: 'm-draft',
      name: 'contract.create',
      entity: 'contract',
      rowId: 'c-0192-draft',
      subject: 'Steel chairs',
      changes: { contractNumber: 'HT-9' },
      fieldNames: {},
      error: { code: 'conflict', message: 'this number duplicates the following contract numbers: HT-9', issues: [{ path: 'contractNumber', message: 'duplicated' }], reason: { key: 'numberDuplicated', params: { kind: 'contract', number: 'HT-9' } } },
    };
    const [problem] = await renderPanel('zh-CN', [refusedDraft]);
    expect(problem!.textContent).toContain('此编号与以下合同编号重复：HT-9。');
    expect(rowsOf(problem!)).toEqual([['合同编号', 'HT-9']]);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('sync-problem-discard'));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('确定放弃该草稿');
    expect(dismissed).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: '放弃草稿' }));
    await waitFor(() => expect(dismissed).toEqual([{ id: 'm-draft' }]));
    await user.click(screen.getByTestId('sync-problem-open'));
    expect(screen.getByTestId('location').textContent).toBe('/myContract/detail?contractId=c-0192-draft');
  });
});

describe('sync panel waiting changes', () => {
  it('lists which changes wait, by kind and contract or plan name, the rest counted (issue 31)', async () => {
    await i18n.changeLanguage('zh-CN');
    const waiting = [
      { id: 'm-1', name: 'contract.update', createdAt: new Date(Date.now() - 120_000).toISOString(), subject: '钢材采购合同' },
      { id: 'm-2', name: 'performance.savePlan', createdAt: new Date(Date.now() - 60_000).toISOString(), subject: '第二期付款计划' },
    ];
    render(
      <Provider store={createAppStore(bridge)}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <SyncPanel status={{ ...status([]), queued: 5, waiting }} />
          </MemoryRouter>
        </I18nextProvider>
      </Provider>,
    );
    const items = screen.getAllByTestId('sync-waiting-change').map((item) => item.textContent);
    expect(items).toEqual([expect.stringMatching(/^编辑合同：钢材采购合同 · 2 ?分钟前$/), expect.stringMatching(/^保存履约计划：第二期付款计划 · 1 ?分钟前$/)]);
    expect(screen.getByTestId('sync-waiting').textContent).toContain('另有 3 条修改');
  });
});
