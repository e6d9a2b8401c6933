import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseTypeNode } from '../../src-shared/domain/ledger';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Law firms, lawyers and case types against the real server (issue 15, item 6): the law firms a
// page at a time with the server's search, every lawyer with their firm, the case-type tree with
// its disabled nodes; offline, each as last read with its time.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 5, seed: 21 });
  page = stage.page;
});

afterAll(() => stage?.close());

const flatten = (nodes: readonly CaseTypeNode[]): CaseTypeNode[] => nodes.flatMap((node) => [node, ...flatten(node.children)]);

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
    await stage.startServer();
  });
});
