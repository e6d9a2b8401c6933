import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../src-shared/ipc/channels';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { cellsOnMoreThanOneLine, chooseLanguage, keepScreenshot, screenSizes, uiLanguages, type UiLanguage } from '../support/e2e-views';
import { submitSignIn } from '../support/manage-e2e';

// The main window's layout in Chromium at the two laptop sizes UI.md names, in English and
// Chinese: no part of the window covers another (top bar, navigation, status tabs, 'New contract',
// 'Filters', the table), the ledger keeps within the content and scrolls within itself with every
// column header whole, the list fills the window's height, and the contract page's header and
// tabs keep apart. Set E2E_SCREENSHOTS_DIR to keep a screenshot of each state there.

let stage: E2eStage;
let page: Page;
let contractId: string;

interface Box {
  name: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The bounding box of each named element (the first match of each selector). */
async function boxes(selectors: Record<string, string>): Promise<Box[]> {
  return Promise.all(
    Object.entries(selectors).map(async ([name, selector]) => {
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`${name} (${selector}) is not shown`);
      return { name, left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height };
    }),
  );
}

/** Every pair of boxes that share more than a rounding pixel. */
function overlapping(list: Box[]): string[] {
  const pairs: string[] = [];
  for (const [i, a] of list.entries()) {
    for (const b of list.slice(i + 1)) {
      const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (width > 1 && height > 1) pairs.push(`${a.name} × ${b.name}`);
    }
  }
  return pairs;
}

const screenshot = (name: string) => keepScreenshot(page, name);

/** The main window's parts share no pixel, and none reaches past the window's right edge. */
async function expectWindowApart(width: number) {
  const window = await boxes({
    'top bar': '[data-testid=app-topbar]',
    navigation: '[data-testid=app-nav]',
    'status tabs': '[data-testid=ledger-header] .bp6-tab-list',
    'new contract': '[data-testid=ledger-create]',
    filters: '[data-testid=ledger-filter-toggle]',
    table: '[data-testid=ledger-table]',
    pager: '.pager',
  });
  expect(overlapping(window)).toEqual([]);
  for (const box of window) expect(box.right, box.name).toBeLessThanOrEqual(width);
  // Nothing makes the window itself scroll sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Waits for the ledger's first page of 20 rows. */
async function fullPage() {
  await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=ledger-row]').length === 20, null, { timeout: 20_000 });
}

beforeAll(async () => {
  // No periodic sync round: the first-sync state the tests show the page stays as they set it.
  stage = await openE2eStage({ contracts: 65, seed: 11, core: { syncIntervalMs: 3_600_000 } });
  page = stage.page;
  await submitSignIn(stage, 'admin', 'admin123');
  await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=ledger-count-all]')?.textContent === '65', null, { timeout: 20_000 });
  await fullPage();
  const view = await page.getByTestId('ledger-row').first().getByRole('link').first().getAttribute('href');
  contractId = new URL(view!, stage.edition.host.url).searchParams.get('contractId')!;
}, 60_000);

afterAll(() => stage?.close());

describe.each(uiLanguages)('the main window in $code', (language: UiLanguage) => {
  const { code } = language;
  beforeAll(async () => {
    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await page.getByTestId('ledger-row').first().waitFor();
    await chooseLanguage(page, language);
  });

  describe.each(screenSizes)('at $width×$height', ({ width, height }) => {
    beforeAll(async () => {
      await page.setViewportSize({ width, height });
      await page.goto(stage.edition.host.url);
      await fullPage();
    });

    it('keeps the top bar, navigation, status tabs, actions and table apart', async () => {
      await screenshot(`ledger-${code}-${width}x${height}`);
      await expectWindowApart(width);
    });

    it('keeps them apart during the first sync too, its progress bar in the top bar', async () => {
      // The core answers the page's status read as a first sync halfway through.
      const invoke = stage.core.invoke;
      stage.core.invoke = async (channel, request) => {
        const answer = await invoke(channel, request);
        if (channel !== 'sync.status' || !answer.ok) return answer;
        return { ok: true, data: { ...(answer.data as SyncStatus), phase: 'pulling', firstSync: true, pulled: 31_250, remaining: 31_250 } };
      };
      try {
        await page.reload();
        await page.locator('.sync-indicator__progress').waitFor({ timeout: 20_000 });
        await fullPage();
        await screenshot(`ledger-first-sync-${code}-${width}x${height}`);
        await expectWindowApart(width);
      } finally {
        stage.core.invoke = invoke;
        await page.reload();
        await fullPage();
      }
    });

    it('keeps the ledger within the content, scrolling within itself with every column header whole', async () => {
      const [content, table] = await boxes({ content: '[data-testid=app-content]', table: '[data-testid=ledger-table]' });
      expect(table!.right).toBeLessThanOrEqual(content!.right);
      const headers = await page.locator('[data-testid=ledger-table] th').evaluateAll((cells) =>
        cells.map((cell) => ({ text: cell.textContent, clipped: cell.scrollWidth > cell.clientWidth + 1, width: cell.getBoundingClientRect().width })),
      );
      // The selection column (batch transfer), eight columns and the operations.
      expect(headers).toHaveLength(10);
      expect(headers.filter((header) => header.clipped || header.width === 0)).toEqual([]);
      // Either every column fits, or the table's own box scrolls to reach them.
      const scroll = await page.getByTestId('ledger-table').evaluate((box) => ({ overflow: getComputedStyle(box).overflowX, wide: box.scrollWidth > box.clientWidth }));
      if (scroll.wide) expect(['auto', 'scroll']).toContain(scroll.overflow);
      // Scrolled to its end, the last header lies within the table's box.
      await page.getByTestId('ledger-table').evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
      const [scrolledTable, last] = await boxes({ table: '[data-testid=ledger-table]', last: '[data-testid=ledger-table] th:last-child' });
      expect(last!.right).toBeLessThanOrEqual(scrolledTable!.right + 1);
      expect(last!.left).toBeGreaterThanOrEqual(scrolledTable!.left - 1);
      await page.getByTestId('ledger-table').evaluate((box) => box.scrollTo({ left: 0 }));
    });

    it('lets the list fill the window height instead of a 300 px box', async () => {
      const [table] = await boxes({ table: '[data-testid=ledger-table]' });
      expect(table!.bottom - table!.top).toBeGreaterThan(height / 2);
      // The pager is in view below it: the content does not scroll to reach it.
      const [pager] = await boxes({ pager: '.pager' });
      expect(pager!.bottom).toBeLessThanOrEqual(height);
    });

    it("keeps the contract page's header and tabs apart", async () => {
      await page.goto(`${stage.edition.host.url}/standingBook/detail?${new URLSearchParams({ contractId, mode: 'contract' })}`);
      await page.locator('.contract-page__tabs .bp6-tab-list').waitFor({ timeout: 20_000 });
      await screenshot(`contract-${code}-${width}x${height}`);
      const parts = await boxes({
        name: '[data-testid=contract-detail-name]',
        actions: '[data-testid=contract-actions]',
        facts: '.contract-header__facts',
        terms: '[data-testid=contract-terms]',
        tabs: '.contract-page__tabs .bp6-tab-list',
      });
      expect(overlapping(parts)).toEqual([]);
      const [content] = await boxes({ content: '[data-testid=app-content]' });
      for (const part of parts) expect(part.right, part.name).toBeLessThanOrEqual(content!.right);
      const terms = await page.locator('[data-testid=contract-terms] > div').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().width));
      expect(terms).toHaveLength(6);
      expect(terms.filter((w) => w === 0)).toEqual([]);
      await page.goto(stage.edition.host.url);
      await fullPage();
    });
  });
});

describe('the contract page from an approval link', () => {
  it("opens the performance tab with the contract's tasks from the replica, and keeps the chosen tab in the link", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(stage.edition.host.url);
    await fullPage();
    await chooseLanguage(page, uiLanguages[0]);
    const { list } = await call(stage.core, 'ledger.contractPage', { pageNum: 1, pageSize: 50 });
    let withTasks: { id: string; count: number; first: string } | undefined;
    for (const contract of list) {
      const sheets = await call(stage.core, 'fulfilment.contract', { contractId: contract.id });
      const tasks = [...sheets.plans.flatMap((plan) => plan.tasks), ...sheets.looseTasks];
      if (tasks.length > 0) {
        withTasks = { id: contract.id, count: tasks.length, first: tasks[0]!.name };
        break;
      }
    }
    if (!withTasks) throw new Error('the seed gave no contract performance tasks');
    await page.goto(`${stage.edition.host.url}/contractApproval/detail?${new URLSearchParams({ id: withTasks.id, flowId: '0', tab: 'PERFORMANCE_TAB', active: '0' })}`);
    await page.getByTestId('contract-tasks').first().waitFor({ timeout: 20_000 });
    await screenshot('contract-performance-1440x900');
    expect(await page.getByTestId('contract-tab-PERFORMANCE_TAB').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('contract-task').count()).toBe(withTasks.count);
    expect(await page.getByTestId('contract-task').first().innerText()).toContain(withTasks.first);
    await page.getByTestId('contract-tab-COOPERATION_TAB').click();
    await page.waitForURL(/tab=COOPERATION_TAB&active=3$/);
    await page.reload();
    await page.locator('.cooperation-info').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('contract-tab-COOPERATION_TAB').getAttribute('aria-selected')).toBe('true');
  });
});

/** Whether a header cell stays put sideways (sticky to the left or right, not only to the top). */
const sideSticky = (th: Element) => {
  const style = getComputedStyle(th);
  return style.position === 'sticky' && (style.left !== 'auto' || style.right !== 'auto');
};

/**
 * The headers of a table's data columns that a sideways-sticky column (the row's actions, a pinned
 * name) overlaps at the table's current scroll: a column in view partly hidden under one.
 */
function coveredHeaders(table: string): Promise<string[]> {
  return page.locator(table).first().evaluate((box, stickyTest) => {
    const isSticky = new Function('th', `return (${stickyTest})(th)`) as (th: Element) => boolean;
    const headers = [...box.querySelectorAll('thead th')];
    const sticky = headers.filter(isSticky);
    const view = box.getBoundingClientRect();
    const covered: string[] = [];
    for (const th of headers) {
      if (sticky.includes(th)) continue;
      const cell = th.getBoundingClientRect();
      if (cell.right <= view.left + 1 || cell.left >= view.right - 1) continue;
      for (const over of sticky) {
        const o = over.getBoundingClientRect();
        if (Math.min(cell.right, o.right) - Math.max(cell.left, o.left) > 1) covered.push((th.textContent ?? '').trim());
      }
    }
    return covered;
  }, sideSticky.toString());
}

/** Scrolls a table so that each data column in turn ends at its sticky column's edge: none may stay under it. */
async function everyColumnReadable(table: string): Promise<string[]> {
  const unreadable: string[] = [];
  const count = await page.locator(`${table} thead th`).count();
  for (let index = 0; index < count; index += 1) {
    const hidden = await page.locator(table).first().evaluate((box, [at, stickyTest]) => {
      const isSticky = new Function('th', `return (${stickyTest as string})(th)`) as (th: Element) => boolean;
      const headers = [...box.querySelectorAll('thead th')];
      const th = headers[at as number]!;
      if (isSticky(th)) return null;
      // The columns pinned on the right take room at the view's right edge.
      const stickyWidth = headers.filter((one) => isSticky(one) && getComputedStyle(one).right !== 'auto').reduce((sum, one) => sum + one.getBoundingClientRect().width, 0);
      // Scrolled by how far the column's right edge lies past the room beside the right-pinned columns.
      const room = box.getBoundingClientRect().left + box.clientWidth - stickyWidth;
      box.scrollLeft = Math.max(0, box.scrollLeft + th.getBoundingClientRect().right - room);
      const view = box.getBoundingClientRect();
      const shown = th.getBoundingClientRect();
      const coveredBy = headers.some((one) => {
        if (one === th || !isSticky(one)) return false;
        const o = one.getBoundingClientRect();
        return Math.min(shown.right, o.right) - Math.max(shown.left, o.left) > 1;
      });
      return coveredBy || shown.left < view.left - 1 || shown.right > view.right + 1 ? th.textContent : null;
    }, [index, sideSticky.toString()] as const);
    if (hidden !== null) unreadable.push(hidden);
  }
  await page.locator(table).first().evaluate((box) => box.scrollTo({ left: 0 }));
  return unreadable;
}

/** Cells of dates, amounts and codes that break over two lines. */
async function brokenValues(root: string): Promise<(string | null)[]> {
  const cells = await cellsOnMoreThanOneLine(page.locator(root).first(), 'td');
  return cells.filter((text) => text !== null && /\d{4}[-年]\d{1,2}|\d{1,3}(,\d{3})*\.\d{2}|[A-Z]{1,6}-\d{2,}/.test(text));
}

/** The buttons of open dialogs whose label is cut (an ellipsis, or text wider than its box). */
function cutDialogButtons(): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const text of document.querySelectorAll('.bp6-dialog .bp6-button .bp6-button-text, .bp6-dialog .bp6-button-text')) {
      if ((text as HTMLElement).scrollWidth > (text as HTMLElement).clientWidth + 1) cut.push(text.textContent ?? '');
    }
    // A file input's button is its ::after box with the label as its content.
    const canvas = document.createElement('canvas').getContext('2d')!;
    for (const input of document.querySelectorAll('.bp6-dialog .bp6-file-upload-input')) {
      const after = getComputedStyle(input, '::after');
      const label = after.content.replace(/^"|"$/g, '');
      canvas.font = `${after.fontWeight} ${after.fontSize} ${after.fontFamily}`;
      const room = parseFloat(after.width) - parseFloat(after.paddingLeft) - parseFloat(after.paddingRight);
      if (canvas.measureText(label).width > room + 1) cut.push(label);
    }
    return cut;
  });
}

describe.each(uiLanguages)('every main list at 1280×800 in $code (issue 31)', (language: UiLanguage) => {
  beforeAll(async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(stage.edition.host.url);
    await fullPage();
    await chooseLanguage(page, language);
  });
  // A check at another size leaves the window at 1280×800 for the next, pass or fail.
  beforeEach(() => page.setViewportSize({ width: 1280, height: 800 }));

  it.each(screenSizes)('keeps the contract ledger\'s amount and status out from under its sticky actions at $width px', async ({ width, height }) => {
    await page.setViewportSize({ width, height });
    await page.goto(stage.edition.host.url);
    await fullPage();
    await screenshot(`list-ledger-${language.code}-${width}x${height}`);
    const covered = await coveredHeaders('[data-testid=ledger-table]');
    const keyColumns = language.code === 'en' ? ['Amount', 'Status'] : ['金额', '状态'];
    expect(covered.filter((header) => keyColumns.includes(header))).toEqual([]);
    // Both are in view before any scrolling, not past the table's right edge.
    const view = await page.getByTestId('ledger-table').boundingBox();
    for (const name of keyColumns) {
      const box = await page.locator('[data-testid=ledger-table] thead th', { hasText: name }).first().boundingBox();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(view!.x + view!.width);
    }
    expect(await everyColumnReadable('[data-testid=ledger-table]')).toEqual([]);
    expect(await brokenValues('[data-testid=ledger-table]')).toEqual([]);
  });

  it("shows an external party's credit rating and risk count in view, every column reachable whole", async () => {
    await page.goto(`${stage.edition.host.url}/counterparties`);
    await page.getByTestId('tab-outer').click();
    await page.locator('[data-testid=counterparty-table] tbody tr').first().waitFor({ timeout: 20_000 });
    await screenshot(`list-counterparties-outer-${language.code}-1280x800`);
    const headers = await page.locator('[data-testid=counterparty-table] thead th').allInnerTexts();
    const view = await page.locator('.counterparty-list__scroll').boundingBox();
    for (const name of language.code === 'en' ? ['Rating', 'Risk count'] : ['信用评级', '风险数']) {
      const header = page.locator('[data-testid=counterparty-table] thead th').nth(headers.indexOf(name));
      const box = await header.boundingBox();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(view!.x + view!.width);
    }
    const covered = await coveredHeaders('.counterparty-list__scroll');
    expect(covered.filter((header) => ['Rating', 'Risk count', '信用评级', '风险数'].includes(header))).toEqual([]);
    expect(await everyColumnReadable('.counterparty-list__scroll')).toEqual([]);
    expect(await brokenValues('[data-testid=counterparty-table]')).toEqual([]);
  });

  it("keeps the reminder board's list view dates, states and amounts on one line", async () => {
    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-dashboard').click({ timeout: 20_000 });
    await page.getByText('List', { exact: true }).or(page.getByText('列表', { exact: true })).first().click();
    await page.locator('[data-testid=dashboard-list] tbody tr').first().waitFor({ timeout: 20_000 });
    await screenshot(`list-dashboard-${language.code}-1280x800`);
    expect(await brokenValues('[data-testid=dashboard-list]')).toEqual([]);
    const dates = await page.locator('[data-testid=dashboard-list] tbody tr[data-testid=dashboard-task] td:first-child').evaluateAll((cells) =>
      cells.filter((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
      }).length,
    );
    expect(dates).toBe(0);
    // Long task, contract and party names squeeze the table: its dates, states and amounts still keep whole.
    await page.getByTestId('dashboard-list').evaluate((list) => ((list as HTMLElement).style.width = '560px'));
    try {
      expect(await brokenValues('[data-testid=dashboard-list]')).toEqual([]);
    } finally {
      await page.getByTestId('dashboard-list').evaluate((list) => ((list as HTMLElement).style.width = ''));
    }
  });

  it.each([
    { name: 'projects', path: '/projects' },
    { name: 'templates', path: '/templates' },
    { name: 'ip', path: '/ip' },
    { name: 'legal', path: '/legal' },
    { name: 'audit', path: '/settings/audit' },
    { name: 'devices', path: '/settings/devices' },
    { name: 'performances', path: '/settings/performances' },
  ])("keeps the $name list's values whole and no column under a sticky one", async ({ name, path }) => {
    await page.goto(`${stage.edition.host.url}${path}`);
    const table = page.locator('[data-testid=app-content] table').first();
    // A list with nothing to show has no table to check (the audit trail of a fresh organisation).
    await table.locator('tbody tr').first().or(page.locator('[data-testid=app-content] .bp6-non-ideal-state')).first().waitFor({ timeout: 20_000 });
    await screenshot(`list-${name}-${language.code}-1280x800`);
    expect(await brokenValues('[data-testid=app-content]')).toEqual([]);
    const scroller = (await table.count()) > 0 && await table.evaluate((element) => {
      let box: HTMLElement | null = element.parentElement;
      while (box && getComputedStyle(box).overflowX !== 'auto' && getComputedStyle(box).overflowX !== 'scroll') box = box.parentElement;
      if (!box) return null;
      box.setAttribute('data-layout-scroll', '');
      return true;
    });
    if (scroller) expect(await everyColumnReadable('[data-layout-scroll]')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  });

  it("shows the archive dialog's file button with its whole label", async () => {
    const { list } = await call(stage.core, 'ledger.contractPage', { pageNum: 1, pageSize: 50, status: 4 });
    expect(list.length).toBeGreaterThan(0);
    await page.goto(stage.edition.host.url);
    await fullPage();
    await page.getByTestId('archive-open').first().click();
    await page.locator('.archive-dialog').waitFor();
    await screenshot(`dialog-archive-${language.code}-1280x800`);
    expect(await cutDialogButtons()).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('.archive-dialog').waitFor({ state: 'detached' });
  });

  it.each([
    { name: 'contract-edit', path: '/', open: '[data-testid=ledger-edit]' },
    { name: 'scoring', path: '/', open: '[data-testid=ledger-score]' },
    { name: 'ip-create', path: '/ip', open: '[data-testid=ip-create]' },
    { name: 'ip-org-create', path: '/ip', tab: '#bp6-tab-title_ip-tabs_organizations', open: '[data-testid=ip-org-create]' },
    { name: 'law-firm-create', path: '/legal', open: '[data-testid=legal-create]' },
    { name: 'lawyer-create', path: '/legal', tab: '#bp6-tab-title_legal-tabs_lawyers', open: '[data-testid=legal-create]' },
    { name: 'case-type-create', path: '/legal', tab: '#bp6-tab-title_legal-tabs_caseTypes', open: '[data-testid=legal-create]' },
  ])("shows the $name dialog's buttons whole, its footer's without scrolling the page", async ({ name, path, tab, open }) => {
    await page.goto(`${stage.edition.host.url}${path}`);
    if (path === '/') await page.getByTestId('scene-tab-contracts').click({ timeout: 20_000 });
    if (tab) await page.locator(tab).click({ timeout: 20_000 });
    await page.locator(open).first().click({ timeout: 20_000 });
    await page.locator('.bp6-dialog').waitFor();
    await page.waitForTimeout(300);
    await screenshot(`dialog-${name}-${language.code}-1280x800`);
    expect(await cutDialogButtons()).toEqual([]);
    // The body may scroll (a long form); the footer's buttons stay in the window as it opens.
    const outside = await page.locator('.bp6-dialog-footer .bp6-button').evaluateAll((buttons) =>
      buttons.filter((button) => {
        const box = button.getBoundingClientRect();
        return box.height === 0 || box.top < 0 || box.bottom > window.innerHeight || box.left < 0 || box.right > window.innerWidth;
      }).map((button) => button.textContent),
    );
    expect(await page.locator('.bp6-dialog-footer .bp6-button').count()).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('.bp6-dialog').waitFor({ state: 'detached' });
  });
});
