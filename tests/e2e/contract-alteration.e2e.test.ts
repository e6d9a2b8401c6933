import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src-shared/api/endpoints';
import { formatMoney } from '../../src-shared/domain/money';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { DateTime } from 'luxon';
import { submitSignIn } from '../support/manage-e2e';

// Issue 11, items 4 and 5: a seeded, approved contract shows its terms and is altered end to end —
// the changed value and the reason in the browser, the alteration queued by the core and applied
// by the server on sync, listed in the server's alteration history.

let stage: E2eStage;
let page: Page;

const input = (fieldId: string) => page.locator(`#contract-form-input-${fieldId}`);

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 40, seed: 73, core: { syncSoonMs: 100, syncBackoffMs: 300 } });
  page = stage.page;
}, 120_000);

afterAll(() => stage?.close());

describe('altering a seeded approved contract', () => {
  it('shows its terms, saves a changed amount with a reason, and the server lists the alteration after sync', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 30_000 }).toBe('40');

    const approved = (await call(stage.core, 'ledger.contractPage', { pageNum: 1, pageSize: 50, status: 4 })).list.find((c) => c.amount !== null)!;
    expect(approved).toMatchObject({ counterpartName: expect.any(String), signDate: expect.any(String) });
    await page.goto(`${stage.edition.host.url}/standingBook/detail?${new URLSearchParams({ id: approved.id })}`);
    await expect.poll(() => page.getByTestId('contract-detail-name').innerText(), { timeout: 20_000 }).toBe(approved.name);
    // The terms are in the header and the form: the counterparty, the amount, the signing day.
    expect(await page.getByTestId('contract-detail-counterparty').innerText()).toBe(approved.counterpartName);
    expect(await page.getByTestId('contract-detail-amount').innerText()).toBe(formatMoney(approved.amount!));
    const form = page.getByTestId('contract-form');
    await expect.poll(() => form.innerText()).toContain(approved.counterpartName!);
    // English UI: the day as luxon writes it in English (zh-CN would be yyyy年MM月dd日).
    expect(await form.innerText()).toContain(DateTime.fromISO(approved.signDate!).setLocale('en').toFormat('d MMM yyyy'));

    await page.getByTestId('contract-alter').click();
    expect(await page.getByTestId('contract-detail').getAttribute('data-mode')).toBe('alter');
    await input('amount').fill('123456.78');
    await input('remark').fill('price agreed again in writing');
    await page.getByTestId('alteration-reason').fill('the supplier lowered the price');
    await page.getByTestId('alteration-save').click();
    await expect.poll(() => page.getByTestId('contract-detail').getAttribute('data-mode')).toBe('view');
    expect(await page.locator('.bp6-toast').allInnerTexts()).not.toContain('Change at least one value before saving the alteration.');

    const client = createContractServerClient(stage.serverUrl);
    const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
    const history = async () => {
      const response = await fetch(`${stage.serverUrl}${endpoints.contractAlterations.path.replace(':id', approved.id)}`, { headers: { authorization: `Bearer ${token}` } });
      return endpoints.contractAlterations.response.parse(((await response.json()) as { data: unknown }).data).list;
    };
    await expect.poll(async () => (await history()).length, { timeout: 30_000 }).toBe(1);
    const [alteration] = await history();
    expect(alteration).toMatchObject({ reason: 'the supplier lowered the price' });
    expect(alteration!.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fieldId: 'amount', before: approved.amount, after: { amount: 12_345_678, unit: approved.amount!.unit } }),
        expect.objectContaining({ fieldId: 'remark', after: 'price agreed again in writing' }),
      ]),
    );
    // Only what changed is recorded, and the ledger shows the new amount.
    expect(alteration!.changes).toHaveLength(2);
    const ledgerAmount = async () => (await call(stage.core, 'ledger.contractPage', { pageNum: 1, pageSize: 50, status: 4 })).list.find((c) => c.id === approved.id)?.amount;
    await expect.poll(ledgerAmount, { timeout: 30_000 }).toEqual({ amount: 12_345_678, unit: approved.amount!.unit });

    // A second alteration empties the remark: sent as an emptied value, not refused as no change.
    await page.getByTestId('contract-alter').click();
    await input('remark').fill('');
    await page.getByTestId('alteration-reason').fill('the remark no longer applies');
    await page.getByTestId('alteration-save').click();
    await expect.poll(() => page.getByTestId('contract-detail').getAttribute('data-mode')).toBe('view');
    await expect.poll(async () => (await history()).length, { timeout: 30_000 }).toBe(2);
    expect((await history())[1]).toMatchObject({ reason: 'the remark no longer applies', changes: [{ fieldId: 'remark', before: 'price agreed again in writing', after: null }] });
  }, 120_000);
});
