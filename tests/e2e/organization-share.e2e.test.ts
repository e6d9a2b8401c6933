import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { onServer, signInOnPage } from '../support/manage-e2e';

// The organisation-share rule (spec 2) against the real server (issue 15): in an organisation-share
// environment the outer list offers no external detail, and the detail's address shows that it is
// not available instead of the party's data.

let stage: E2eStage;
let page: Page;
const admin = { username: 'admin', password: 'admin123' };

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 5, seed: 23, core: { organizationShare: true } });
  page = stage.page;
});

afterAll(() => stage?.close());

describe('an organisation-share environment', () => {
  it('lists outer parties without a detail link, and does not show the detail at its address', { timeout: 90_000 }, async () => {
    const outer = (await onServer(stage, admin, 'counterpartyList', { query: { type: '2', pageSize: '5' } })).list[0]!;
    await signInOnPage(stage, admin.username, admin.password);
    await page.getByTestId('nav-counterparties').click();
    await page.getByTestId('tab-outer').click();
    const row = page.getByTestId(`counterparty-row-${outer.id}`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.innerText()).toContain(outer.name);
    expect(await row.getByRole('link').count()).toBe(0);

    await page.goto(`${stage.edition.host.url}/manage/oppositeParty/externalDetail?id=${outer.id}`);
    await page.getByTestId('external-detail-hidden').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('external-detail-hidden').innerText()).toContain('not available in an organisation-share environment');
    expect(await page.getByTestId('external-detail').count()).toBe(0);
    expect(await page.getByText(outer.name).count()).toBe(0);
  });
});
