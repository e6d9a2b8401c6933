import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { SheetColumn } from '../../src-shared/domain/performance';
import { contracts, templates } from '../../src-server/db/schema';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { inEachLanguageAndSize, keepScreenshot } from '../support/e2e-views';
import { onServer, signInOnPage } from '../support/manage-e2e';

// The sheet editor with a column of every type (issue 28 item 3): a performance made by the
// administrator through REST, a plan of it on an approved contract; in the browser edition a new
// row saved empty or with bad cells shows the spec's messages under its cells (both languages, both
// sizes), and once filled the row reaches the server with what the editor showed.

let stage: E2eStage;
let page: Page;
let contractId = '';
let planId = '';
let performanceId = '';
/** A text field of the contract's template, which the 'site' column follows, and its value. */
let textField = { id: '', name: '' };
const siteValue = 'Yard 7, north gate';

const columns: SheetColumn[] = [
  { id: 'name', name: 'performance content', type: 'text', isRequired: true, isState: false },
  { id: 'expirationTime', name: 'performance date', type: 'date', isRequired: true, isState: false },
  { id: 'receivableAmount', name: 'receivable amount', type: 'money', isRequired: true, isState: false },
  { id: 'leader', name: 'task leader', type: 'people', config: { singleSelect: true }, isRequired: false, isState: false },
  { id: 'qty', name: 'Quantity', type: 'number', config: { valueRange: { mode: 1, conditions: [{ comparator: 'greater', value: '0' }, { comparator: 'lessOrEqual', value: '100' }] } }, isRequired: false, isState: false },
  { id: 'deposit', name: 'Deposit', type: 'money', isRequired: false, isState: false },
  { id: 'grade', name: 'Grade', type: 'select', config: { options: [{ id: 'a', name: 'Grade A' }, { id: 'b', name: 'Grade B' }] }, isRequired: true, isState: false },
  { id: 'tags', name: 'Tags', type: 'multiselect', config: { options: [{ id: 'x', name: 'Urgent' }, { id: 'y', name: 'Large' }] }, isRequired: false, isState: false },
  { id: 'owners', name: 'Owners', type: 'people', isRequired: false, isState: false },
  { id: 'when', name: 'Due on', type: 'performanceTime', isRequired: true, isState: false },
  { id: 'buyer', name: 'Buyer', type: 'outerParty', isRequired: false, isState: false },
  { id: 'seller', name: 'Seller', type: 'innerParty', isRequired: false, isState: false },
  { id: 'signedOn', name: 'Signed on', type: 'date', isRequired: false, isState: false },
  { id: 'memo', name: 'Memo', type: 'textarea', isRequired: false, isState: false },
  { id: 'taskState', name: 'task state', type: 'select', isRequired: false, isState: true },
];
/** The column that follows the contract's text field (set once the field is known). */
const siteColumn = (fieldId: string): SheetColumn => ({ id: 'site', name: 'Site', type: 'text', config: { relatedFieldId: fieldId }, isRequired: false, isState: false });

const admin = { username: 'admin', password: 'admin123' };

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 12,
    seed: 28,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    async seeded(db) {
      // An approved contract whose template has a text field: the sheet's 'site' column follows it.
      for (const approved of await db.select().from(contracts).where(eq(contracts.status, 4))) {
        if (!approved.templateId) continue;
        const [template] = await db.select().from(templates).where(eq(templates.id, approved.templateId));
        const field = (template?.fields as { id: string; name: string; type: string }[] | undefined)?.find((f) => f.type === 'text');
        if (!field) continue;
        contractId = approved.id;
        textField = { id: field.id, name: field.name };
        await db.update(contracts).set({ formValues: { ...approved.formValues, [field.id]: siteValue } }).where(eq(contracts.id, approved.id));
        break;
      }
      expect(contractId).not.toBe('');
    },
    // The administrator defines a performance with every column type and starts a plan of it by REST.
    async prepare(server) {
      const client = createContractServerClient(server.url);
      const { token } = await client.call('login', { body: admin });
      const performance = await client.call('performanceCreate', { token, body: { name: 'Every column', type: 'receivable', columns: [...columns, siteColumn(textField.id)] } });
      performanceId = performance.id;
      const plan = await client.call('performancePlanSave', {
        token,
        params: { id: performanceId },
        body: {
          contractID: contractId,
          conditionType: 1,
          rows: [{ name: 'First delivery', expirationTime: '2026-12-10', receivableAmount: { amount: 100_000, unit: 'CNY' }, values: { grade: 'a', when: { conditionType: 0, date: '2026-12-10' } } }],
        },
      });
      planId = plan.id;
    },
  });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
}, 180_000);

afterAll(() => stage?.close());

const plan = () => page.locator(`[data-testid=performance-plan][data-plan-id="${planId}"]`);
const cell = (row: Locator, id: string) => row.getByTestId(`sheet-cell-${id}`);

describe('the sheet editor with every column type', () => {
  it('signs in and opens the plan in the editor: every column has its editor and required ones are marked', async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await expect.poll(() => page.getByTestId('sync-details').getAttribute('data-queued'), { timeout: 30_000 }).toBe('0');
    await page.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: contractId, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
    await plan().waitFor({ timeout: 30_000 });
    // The saved row's cells read as the user gave them: the choice by its name, the time as a date.
    await expect.poll(() => plan().getByTestId('contract-task').first().innerText()).toContain('Grade A');
    await plan().getByTestId('sheet-edit').click();
    await plan().getByTestId('sheet-editor').waitFor();
    expect(await plan().getByTestId('sheet-head-grade').innerText()).toBe('* Grade');
    expect(await plan().getByTestId('sheet-head-tags').innerText()).toBe('Tags');
    const first = plan().getByTestId('sheet-edit-row').first();
    for (const column of columns.filter((c) => !c.isState && !['name', 'expirationTime', 'receivableAmount', 'leader'].includes(c.id))) {
      expect(await cell(first, column.id).count(), column.id).toBe(1);
    }
    expect(await first.getByTestId('sheet-edit-leader').count()).toBe(1);
    expect(await cell(first, 'grade').locator('select').inputValue()).toBe('a');
    // The related column shows the contract's value, read-only; extraction fills the memo from the same field once.
    expect(await cell(first, 'site').innerText()).toContain(siteValue);
    expect(await cell(first, 'site').locator('input').count()).toBe(0);
    expect(await plan().getByTestId('sheet-related-site').count()).toBe(1);
    await plan().getByTestId('sheet-extract-memo').click();
    await page.getByRole('menuitem', { name: textField.name }).click();
    expect(await cell(first, 'memo').locator('textarea').inputValue()).toBe(siteValue);
    expect(await plan().getByTestId('sheet-extract-grade').count()).toBe(0);
  }, 120_000);

  it("refuses a new row's empty and bad cells with the spec's messages, in both languages and sizes", async () => {
    await plan().getByTestId('sheet-add-row').click();
    const added = plan().getByTestId('sheet-edit-row').last();
    expect(await cell(added, 'memo').locator('textarea').getAttribute('placeholder')).toBe('Please fill in Memo');
    expect(await added.getByTestId('sheet-edit-receivableAmount').getAttribute('placeholder')).toBe('Please enter the payment amount');
    await cell(added, 'qty').locator('input').fill('150');
    await cell(added, 'deposit').locator('input').first().fill('0');
    await cell(added, 'when').locator('select').first().selectOption('1');
    await cell(added, 'when').locator('select').nth(1).selectOption('signDate');
    await plan().getByTestId('sheet-save').click();
    await plan().getByTestId('sheet-invalid').waitFor();
    const problem = async (id: string) => (await added.locator(`[data-testid=sheet-cell-${id}] [role=alert], td:has([data-testid=sheet-edit-${id}]) [role=alert]`).first().innerText()).trim();
    expect(await problem('qty')).toBe('The value range is invalid (allowed: > 0 and ≤ 100)');
    expect(await problem('deposit')).toBe('Please enter the payment amount');
    expect(await problem('grade')).toBe('Please select Grade');
    expect(await problem('when')).toBe('Please enter the condition time');
    expect(await added.locator('[role=alert]').allInnerTexts()).toEqual(
      expect.arrayContaining(['Please enter Performance content', 'Please enter Performance date', 'Please enter the payment amount']),
    );
    const scroller = plan().locator('.fulfilment-editor__scroll');
    await inEachLanguageAndSize(page, async (language, size) => {
      await scroller.evaluate((element) => element.scrollTo({ left: 0 }));
      await plan().getByTestId('sheet-invalid').scrollIntoViewIfNeeded();
      if (language.code === 'zh-CN') {
        expect(await problem('grade')).toBe('请选择Grade');
        expect(await problem('when')).toBe('请输入条件时间');
        expect(await problem('qty')).toContain('取值范围无效');
      }
      await keepScreenshot(page, `sheet-columns-invalid-${size.width}x${size.height}-${language.code}`);
      // The columns beyond the window: the sheet scrolls within the tab.
      await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
      await keepScreenshot(page, `sheet-columns-invalid-right-${size.width}x${size.height}-${language.code}`);
    });
  }, 120_000);

  it('saves the row once its cells are valid: the server stores what the editor showed', async () => {
    const added = plan().getByTestId('sheet-edit-row').last();
    await added.getByTestId('sheet-edit-name').fill('Second delivery');
    await added.getByTestId('sheet-edit-date').locator('input').fill('2026年12月20日');
    await added.getByTestId('sheet-edit-name').click();
    await added.getByTestId('sheet-edit-receivableAmount').fill('2500');
    await cell(added, 'qty').locator('input').fill('12.5');
    await cell(added, 'deposit').locator('input').first().fill('300');
    await cell(added, 'grade').locator('select').selectOption('b');
    await cell(added, 'when').locator('input').fill('30, 60');
    await cell(added, 'when').locator('input').blur();
    await cell(added, 'memo').locator('textarea').fill('Two lines\nof memo');
    await cell(added, 'owners').locator('input').fill('Alice');
    await cell(added, 'owners').getByRole('menuitem').first().click();
    await keepScreenshot(page, 'sheet-columns-filled-1440x900-zh-CN');
    await plan().getByTestId('sheet-save').click();
    await plan().getByTestId('sheet-editor').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('sync-details').getAttribute('data-queued'), { timeout: 30_000 }).toBe('0');

    const { list } = await onServer(stage, admin, 'performanceTasksByContract', { query: { contractID: contractId } });
    const saved = list.find((task) => task.taskName === 'Second delivery')!;
    expect(saved).toMatchObject({ date: '2026-12-20', receivableAmount: { amount: 250_000, unit: 'CNY' } });
    expect(saved.values).toMatchObject({
      qty: '12.5',
      deposit: { amount: 30_000 },
      grade: 'b',
      when: { conditionType: 1, nodeId: 'signDate', days: [30, 60] },
      memo: 'Two lines\nof memo',
      site: siteValue,
      owners: [{ name: expect.stringContaining('Alice') as string }],
    });
    // The sheet shows the same cells as it read them back.
    const shown = await plan().getByTestId('contract-task').filter({ hasText: 'Second delivery' }).innerText();
    expect(shown).toContain('Grade B');
    expect(shown).toContain('30, 60');
    await keepScreenshot(page, 'sheet-columns-saved-1440x900-zh-CN');
  }, 120_000);
});
