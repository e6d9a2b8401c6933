import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseTypeNode } from '../../src-shared/domain/ledger';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, inEachLanguageAndSize, keepScreenshot, setChecked, uiLanguages } from '../support/e2e-views';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Law firms, lawyers and case types against the real server (issue 15, item 6): the law firms a
// page at a time with the server's search, every lawyer with their firm, the case-type tree with
// its disabled nodes; offline, each as last read with its time. Issue 31: each created, edited and
// disabled in the app, and offline a write refused at once.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 5, seed: 21 });
  page = stage.page;
});

afterAll(() => stage?.close());

const flatten = (nodes: readonly CaseTypeNode[]): CaseTypeNode[] => nodes.flatMap((node) => [node, ...flatten(node.children)]);
const dialog = () => page.getByRole('dialog');

async function search(testId: string, text: string) {
  await page.getByTestId(testId).fill(text);
  await page.getByTestId(testId).press('Enter');
}

/** Fills the open dialog's name and saves it; the dialog closes. */
async function saveName(name: string) {
  await dialog().getByTestId('legal-name').fill(name);
  await page.getByTestId('dialog-submit').click();
  await expect.poll(() => dialog().count(), { timeout: 10_000 }).toBe(0);
}

describe('law firms, lawyers and case types', () => {
  it('lists the law firms with pages and finds one by name', { timeout: 90_000 }, async () => {
    await signInOnPage(stage, admin.username, admin.password);
    await page.getByTestId('nav-legal').click();
    const all = await onServer(stage, admin, 'lawFirmList', {});
    const lawyers = await onServer(stage, admin, 'lawyerList');
    await expect.poll(() => page.getByTestId('legal-law-firm').count(), { timeout: 20_000 }).toBe(Math.min(20, all.count));
    expect(await page.getByTestId('pager-total').innerText()).toContain(String(all.count));
    const firm = all.list[0]!;
    await page.getByTestId('legal-law-firm-search').fill(firm.name);
    await page.getByTestId('legal-law-firm-search').press('Enter');
    await expect.poll(() => page.getByTestId('legal-law-firm').count()).toBe(1);
    const row = page.getByTestId('legal-law-firm');
    await expect.poll(() => row.innerText()).toContain(String(lawyers.list.filter((lawyer) => lawyer.lawFirmID === firm.id).length));
    expect(await row.innerText()).toContain(firm.name);
  });

  it('lists every lawyer with their firm, searched by the firm', { timeout: 60_000 }, async () => {
    const firms = await onServer(stage, admin, 'lawFirmList', {});
    const lawyers = await onServer(stage, admin, 'lawyerList');
    await page.getByRole('tab', { name: 'Lawyers' }).click();
    await expect.poll(() => page.getByTestId('pager-total').innerText(), { timeout: 20_000 }).toContain(String(lawyers.list.length));
    const firm = firms.list[1]!;
    await page.getByTestId('legal-lawyer-search').fill(firm.name);
    await page.getByTestId('legal-lawyer-search').press('Enter');
    const ofFirm = lawyers.list.filter((lawyer) => lawyer.lawFirmID === firm.id);
    await expect.poll(() => page.getByTestId('legal-lawyer').count()).toBe(ofFirm.length);
    expect((await page.getByTestId('legal-lawyer').allInnerTexts()).every((text) => text.includes(firm.name))).toBe(true);
  });

  it('shows the case-type tree with the disabled ones marked, and finds a node with the path to it', { timeout: 60_000 }, async () => {
    const tree = flatten(await onServer(stage, admin, 'caseTypeTree'));
    await page.getByRole('tab', { name: 'Case types' }).click();
    await expect.poll(() => page.getByTestId('legal-case-type').count(), { timeout: 20_000 }).toBe(tree.length);
    const disabled = tree.filter((node) => node.state === 2);
    expect(disabled.length).toBeGreaterThan(0);
    expect(await page.getByTestId('legal-case-type').filter({ hasText: 'Disabled' }).count()).toBe(disabled.length);
    await page.getByTestId('legal-case-type-search').fill('Tort');
    await page.getByTestId('legal-case-type-search').press('Enter');
    await expect.poll(() => page.getByTestId('legal-case-type').allInnerTexts()).toEqual([expect.stringContaining('Civil'), expect.stringContaining('Tort')]);
  });

  it('creates a law firm (the name is required) and a lawyer of it, renames the firm, and disables both', { timeout: 90_000 }, async () => {
    await page.getByRole('tab', { name: 'Law firms' }).click();
    await page.getByTestId('legal-create').click();
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByText('Please enter the name').count()).toBe(1);
    await saveName('E2E（杭州）律师事务所');
    await search('legal-law-firm-search', 'E2E（杭州）');
    const firmRow = page.getByTestId('legal-law-firm');
    await expect.poll(() => firmRow.allInnerTexts()).toEqual([expect.stringContaining('Enabled')]);
    const [firm] = (await onServer(stage, admin, 'lawFirmList', { query: { q: 'E2E（杭州）' } })).list;
    expect(firm).toMatchObject({ name: 'E2E（杭州）律师事务所', state: 1 });
    // The same name again: the server's reason, in words.
    await page.getByTestId('legal-create').click();
    await dialog().getByTestId('legal-name').fill('E2E（杭州）律师事务所');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByTestId('dialog-failure').innerText(), { timeout: 10_000 }).toBe('A law firm with this name already exists.');
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('tab', { name: 'Lawyers' }).click();
    await page.getByTestId('legal-create').click();
    await dialog().getByTestId('legal-name').fill('E2E 周律师');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().locator('.bp6-form-helper-text', { hasText: 'Please select a law firm' }).count()).toBe(1);
    await dialog().getByTestId('legal-law-firm').selectOption({ label: 'E2E（杭州）律师事务所' });
    await saveName('E2E 周律师');
    await search('legal-lawyer-search', 'E2E 周');
    await expect.poll(() => page.getByTestId('legal-lawyer').allInnerTexts()).toEqual([expect.stringContaining('E2E（杭州）律师事务所')]);
    const lawyer = (await onServer(stage, admin, 'lawyerList')).list.find((l) => l.name === 'E2E 周律师');
    expect(lawyer).toMatchObject({ lawFirmID: firm!.id, state: 1 });
    await page.getByTestId('legal-lawyer').getByTestId('legal-switch-state').click();
    await expect.poll(() => page.getByTestId('legal-lawyer').innerText()).toContain('Disabled');
    expect((await onServer(stage, admin, 'lawyerList')).list.find((l) => l.id === lawyer!.id)?.state).toBe(2);

    await page.getByRole('tab', { name: 'Law firms' }).click();
    await search('legal-law-firm-search', 'E2E（杭州）');
    await expect.poll(() => page.getByTestId('legal-law-firm').count()).toBe(1);
    await page.getByTestId('legal-law-firm').getByTestId('legal-edit').click();
    await expect.poll(() => dialog().getByTestId('legal-name').inputValue()).toBe('E2E（杭州）律师事务所');
    await saveName('E2E（杭州）律师事务所二所');
    await expect.poll(() => page.getByTestId('legal-law-firm').innerText()).toContain('二所');
    await page.getByTestId('legal-law-firm').getByTestId('legal-switch-state').click();
    await expect.poll(() => page.getByTestId('legal-law-firm').innerText()).toContain('Disabled');
    expect((await onServer(stage, admin, 'lawFirmList', { query: { q: 'E2E（杭州）' } })).list).toEqual([{ id: firm!.id, name: 'E2E（杭州）律师事务所二所', state: 2 }]);
    await search('legal-law-firm-search', '');
  });

  it('adds a case type at the top and one under it, and disables the lower one, keeping the tree', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Case types' }).click();
    await page.getByTestId('legal-create').click();
    expect(await dialog().getByTestId('legal-parent').innerText()).toBe('None: at the top of the tree');
    await saveName('E2E 知识产权纠纷');
    const top = page.getByTestId('legal-case-type').filter({ hasText: 'E2E 知识产权纠纷' });
    await expect.poll(() => top.count(), { timeout: 10_000 }).toBe(1);
    await top.getByTestId('legal-add-child').click();
    expect(await dialog().getByTestId('legal-parent').innerText()).toBe('E2E 知识产权纠纷');
    await setChecked(dialog().getByRole('checkbox'), false);
    await saveName('E2E 商标侵权');
    const rows = page.getByTestId('legal-case-type');
    await expect.poll(() => rows.filter({ hasText: 'E2E 商标侵权' }).innerText()).toContain('Disabled');
    const texts = await rows.allInnerTexts();
    expect(texts.findIndex((text) => text.includes('E2E 商标侵权'))).toBe(texts.findIndex((text) => text.includes('E2E 知识产权纠纷')) + 1);
    const node = (await onServer(stage, admin, 'caseTypeTree')).find((n) => n.name === 'E2E 知识产权纠纷');
    expect(node?.children.map((child) => ({ name: child.name, state: child.state }))).toEqual([{ name: 'E2E 商标侵权', state: 2 }]);
    await rows.filter({ hasText: 'E2E 商标侵权' }).getByTestId('legal-switch-state').click();
    await expect.poll(() => rows.filter({ hasText: 'E2E 商标侵权' }).innerText()).toContain('Enabled');
  });

  it('shows each new dialog whole in both languages at both sizes', { timeout: 120_000 }, async () => {
    const viewport = page.viewportSize()!;
    const tabs = ['law-firm', 'lawyer', 'case-type'];
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      for (const [index, name] of tabs.entries()) {
        await page.getByRole('tab').nth(index).click();
        await page.getByTestId('legal-create').click();
        await dialog().getByTestId('legal-name').waitFor();
        const box = (await dialog().boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(height);
        await keepScreenshot(page, `legal-${name}-dialog-${language.code}-${width}x${height}`);
        await dialog().getByTestId('legal-name').press('Escape');
        await expect.poll(() => dialog().count()).toBe(0);
      }
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize(viewport);
  });

  it('offline: shows the law firms and case types as last read, with the time', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Law firms' }).click();
    await expect.poll(() => page.getByTestId('legal-law-firm').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('nav-legal').click();
    await expect.poll(() => page.getByTestId('as-of-note').innerText(), { timeout: 20_000 }).toMatch(/^Offline: as last read on .*\d/);
    expect(await page.getByTestId('legal-law-firm').count()).toBeGreaterThan(1);
    await page.getByRole('tab', { name: 'Case types' }).click();
    await expect.poll(() => page.getByTestId('legal-case-type').count()).toBeGreaterThan(0);
    // The case types read online before show at once; the note follows the offline answer of the read again.
    await expect.poll(() => page.getByTestId('as-of-note').count(), { timeout: 20_000 }).toBe(1);
    // A write needs the server: refused at once with the offline message, nothing waits.
    await page.getByTestId('legal-create').click();
    await dialog().getByTestId('legal-name').fill('E2E 离线案件类型');
    const clicked = Date.now();
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByTestId('dialog-failure').innerText(), { timeout: 2_000 }).toContain('cannot be reached now');
    expect(Date.now() - clicked).toBeLessThan(2_000);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await stage.startServer();
  });
});
