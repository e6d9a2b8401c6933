import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// Chinese in the real app on a machine with no CJK font (this one and CI have none): the app ships
// Noto Sans SC, so Chinese glyphs have width, and the ledger row's '查看' link can be clicked.

let stage: E2eStage;
let page: Page;

/** The width of a text drawn in the app's own font, in a span appended to the app's body. */
const textWidth = (text: string) =>
  page.evaluate((content) => {
    const span = document.createElement('span');
    span.textContent = content;
    document.body.append(span);
    const width = span.getBoundingClientRect().width;
    span.remove();
    return width;
  }, text);

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 5, seed: 3, core: { systemLocale: 'zh-CN' }, locale: 'zh-CN' });
  page = stage.page;
});

afterAll(() => stage?.close());

describe('Chinese without a system CJK font', () => {
  it('signs in to the ledger in Chinese', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.locator('[data-testid=ledger-row]').count(), { timeout: 20_000 }).toBe(5);
  });

  it('draws Chinese text with the bundled Noto Sans SC', async () => {
    await page.evaluate(() => document.fonts.ready);
    const chinese = await textWidth('合同台账');
    const dots = await textWidth('....');
    expect(dots).toBeGreaterThan(0);
    // A CJK glyph is about one em wide; four of them are far wider than four full stops.
    expect(chinese).toBeGreaterThan(dots * 2);
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((face) => face.family.replace(/["']/g, '') === 'Noto Sans SC Variable' && face.status === 'loaded').length,
    );
    expect(loaded).toBeGreaterThan(0);
  });

  it('gives the ledger row’s 查看 link a width and opens the contract when clicked', async () => {
    const view = page.locator('[data-testid=ledger-row]').first().getByRole('link', { name: '查看' });
    const box = await view.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(10);
    const [popup] = await Promise.all([page.waitForEvent('popup'), view.click()]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).pathname).toBe('/standingBook/detail');
    await popup.close();
  });
});
