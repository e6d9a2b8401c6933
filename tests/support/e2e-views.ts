import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

// How the e2e suites look at a screen as UI.md asks: at the two laptop sizes, in both languages,
// keeping a screenshot of each state in E2E_SCREENSHOTS_DIR when it is set.

export const screenSizes = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

export const uiLanguages = [
  { menu: 'English', code: 'en' },
  { menu: '简体中文', code: 'zh-CN' },
] as const;
export type UiLanguage = (typeof uiLanguages)[number];

/** Switches the UI language from the top bar's menu and waits until the page shows it. */
export async function chooseLanguage(page: Page, { menu, code }: UiLanguage): Promise<void> {
  await page.getByTestId('language-menu').click();
  await page.getByRole('option', { name: menu }).or(page.getByText(menu, { exact: true })).first().click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, code);
  await page.keyboard.press('Escape');
}

/** Keeps a screenshot of the page as `<name>.png` in E2E_SCREENSHOTS_DIR, when that is set. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  // Popovers still opening would be caught half-faded.
  await page.screenshot({ path: join(dir, `${name}.png`), animations: 'disabled' });
}

/** Runs `look` in each language, at each size within it. */
export async function inEachLanguageAndSize(page: Page, look: (language: UiLanguage, size: (typeof screenSizes)[number]) => Promise<void>): Promise<void> {
  for (const language of uiLanguages) {
    await chooseLanguage(page, language);
    for (const size of screenSizes) {
      await page.setViewportSize(size);
      await look(language, size);
    }
  }
}

/**
 * The texts of the cells under `root` matching `selector` that take more than one line (their text's
 * line boxes). Cells holding buttons are left out: a row's actions lie side by side by design.
 */
export function cellsOnMoreThanOneLine(root: Locator, selector: string): Promise<(string | null)[]> {
  return root.evaluate(
    (element, cells) =>
      [...element.querySelectorAll(cells)]
        .filter((cell) => {
          if (cell.querySelector('button')) return false;
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
        })
        .map((cell) => cell.textContent),
    selector,
  );
}

/** A scene column's cells by its header's test id (the first column is the row's selection box). */
export async function sceneColumnTexts(page: Page, id: string): Promise<string[]> {
  const headers = await page.locator('[data-testid=scene-table] thead th').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-testid')));
  const index = headers.indexOf(`scene-column-${id}`) + 1;
  return page.locator(`[data-testid=scene-row] td:nth-child(${index})`).allInnerTexts();
}

/**
 * Ticks (or clears) a Blueprint checkbox, switch or radio given its input. The input lies under
 * the drawn box, so its label is clicked, with Playwright's checks that it stands still: a forced
 * click during a dialog's opening transition lands beside it on a loaded machine.
 */
export async function setChecked(input: Locator, checked = true): Promise<void> {
  if ((await input.isChecked()) === checked) return;
  await input.locator('xpath=..').click();
  await input.page().waitForFunction(([element, wanted]) => (element as HTMLInputElement).checked === wanted, [await input.elementHandle(), checked] as const, { timeout: 10_000 });
}
