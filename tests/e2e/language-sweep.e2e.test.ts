import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartyType } from '../../src-shared/domain/enums';
import { en } from '../../src-shared/i18n/en';
import { specRoutePaths, type SpecRoute } from '../../src-shared/routes';
import { isEditableStatus } from '../../src-shared/rules/contract-status';
import { call, waitFor } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { chooseLanguage, keepScreenshot, setChecked, uiLanguages, type UiLanguage } from '../support/e2e-views';
import { submitSignIn } from '../support/manage-e2e';

// Issue 31 item 4: every route of src-shared/routes.ts, every screen of our own and the main
// dialogs, in both languages, read as a user reads them. The chrome (everything but data: table
// cells, inputs and what is marked data-user-data) has no Latin word in Chinese but the product's
// formats and units, and no Chinese in English; nowhere a raw catalog key, a UUID or JSON text.
// One seeded server, one browser. E2E_SCREENSHOTS_DIR keeps a screenshot of each screen.

let stage: E2eStage;
let page: Page;
/** Every screen to visit, by a name for its screenshot. */
let screens: { name: string; path: string; ready: string; click?: string }[] = [];
/** A contract the user may edit (a draft, edited by this device and sent) and one locked after approval, by name. */
let draftName = '';
let lockedName = '';
/** A seeded template's number: the template editor's duplicate check lists that template. */
let templateNumber = '';

/** Latin words Chinese text may hold (tests/shared/i18n-catalogs.test.ts has the same list). */
const latinInChinese = ['PDF', 'Word', 'Excel', 'DOCX', 'docx', 'CSV', 'MB', 'KB', 'ID', 'Esc', 'README', 'Contract', 'Desk'];
/** The catalog's top-level keys: "contractForm.pleaseSelect" on screen is a key shown raw. */
const namespaces = Object.keys(en);

/**
 * Where the page shows data, in whatever language it was written: table cells, inputs, fact lists'
 * values and what the screens mark data-user-data (a user's, contract's, party's or scene's name);
 * the contract form's labels and read-only values (a template's labels are data, UI.md); a
 * project's or IP right's header (their screens are another branch's: matched here, not marked).
 */
const dataAreas = [
  'td',
  'input',
  'textarea',
  'select',
  'dd',
  '[data-user-data]',
  '.contract-form__row > .bp6-form-group > label',
  '.contract-form__row[data-mode=preview] .bp6-form-content',
  '.contract-form__row[data-mode=disabled] .bp6-form-content',
  '[data-testid=project-name]',
  '.manage__header .manage__muted',
  '.manage__description',
  '[data-testid=ip-name]',
  // A dialog's title names its record ("Archive: <contract name>"); the catalogs' test reads its words.
  '.bp6-dialog-header .bp6-heading',
];

interface Finding {
  kind: string;
  text: string;
}

/**
 * What is out of place on the page now: chrome text in the wrong language, and anywhere a raw
 * key, a UUID or JSON. Only what is shown counts (hidden elements and closed popovers are not read).
 */
function findings(language: UiLanguage['code']): Promise<Finding[]> {
  return page.evaluate(
    ({ language, allowed, namespaces, dataAreas }) => {
      const data = dataAreas.join(', ');
      const rawKey = new RegExp(`\\b(?:${namespaces.join('|')})\\.[a-zA-Z][\\w.]*`);
      const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
      const json = /[{[]\s*"[^"]+"\s*:|^\s*\{.*\}\s*$/;
      const cjk = /[\u3400-\u9fff\uff01-\uff5e]/;
      const found: { kind: string; text: string }[] = [];
      const shown = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
      };
      const check = (text: string, element: Element) => {
        if (text.trim() === '' || !shown(element)) return;
        // Where it is, for the failure's message: the element and the nearest test id.
        const tested = element.closest('[data-testid]');
        const where = `${element.tagName.toLowerCase()}${typeof element.className === 'string' && element.className ? `.${element.className.split(' ')[0]}` : ''}${tested ? ` in ${tested.getAttribute('data-testid')}` : ''}`;
        const push = (kind: string) => found.push({ kind, text: `${text.trim()} [${where}]` });
        if (rawKey.test(text)) push('raw key');
        if (uuid.test(text)) push('UUID');
        if (json.test(text)) push('JSON');
        if (element.closest(data)) return;
        if (language === 'en' && cjk.test(text)) push('Chinese in English');
        if (language === 'zh-CN') {
          const words = (text.match(/[A-Za-z]{2,}/g) ?? []).filter((word) => !allowed.includes(word));
          if (words.length > 0) push('English in Chinese');
        }
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent && !parent.closest('script, style, [aria-hidden=true]')) check(node.textContent ?? '', parent);
      }
      for (const element of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
        for (const name of ['placeholder', 'aria-label', 'title']) {
          const value = element.getAttribute(name);
          if (value) check(value, element);
        }
      }
      return found;
    },
    { language, allowed: latinInChinese, namespaces, dataAreas },
  );
}

/** The first record of a server list the core keeps (a project, an IP right), or null. */
async function firstId(endpoint: 'projectList' | 'ipList'): Promise<string | null> {
  const answer = await call(stage.core, 'cached.read', { endpoint, params: {}, query: { pageNum: 1, pageSize: 5 } });
  return (answer.value as { list: { id: string }[] }).list[0]?.id ?? null;
}

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 30, seed: 7, core: { syncIntervalMs: 3_600_000 } });
  page = stage.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await submitSignIn(stage, 'admin', 'admin123');
  await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
  const { list } = await call(stage.core, 'ledger.contractPage', { pageNum: 1, pageSize: 50 });
  const contract = list.find((one) => one.status === 4) ?? list[0]!;
  lockedName = contract.name;
  // A draft edited on this device and sent: its history tab lists the edit (device, changed values),
  // and its unlocked edit dialog is swept besides the locked one's.
  const draft = list.find((one) => isEditableStatus(one.status));
  if (!draft) throw new Error('the seed has no draft contract to sweep');
  draftName = `${draft.name}（修订）`;
  await call(stage.core, 'contract.update', { id: draft.id, patch: { name: draftName } });
  await call(stage.core, 'sync.now', {});
  await waitFor(async () => ((await call(stage.core, 'sync.status', {})).queued === 0 ? true : undefined), 30_000);
  const templates = await call(stage.core, 'cached.read', { endpoint: 'templateList', params: {}, query: { pageNum: 1, pageSize: 20 } });
  templateNumber = (templates.value as { list: { templateNumber: string | null }[] }).list.find((one) => one.templateNumber)?.templateNumber ?? '';
  expect(templateNumber).not.toBe('');
  const project = await firstId('projectList');
  const ip = await firstId('ipList');
  const parties = await call(stage.core, 'counterparties.list', { type: PartyType.Outer, pageSize: 5 });
  const party = parties.value.list[0] ? `/manage/oppositeParty/externalDetail?id=${parties.value.list[0].id}` : null;
  const specPaths: Record<SpecRoute, string | null> = {
    '/standingBook/detail': `/standingBook/detail?${new URLSearchParams({ contractId: contract.id, mode: 'contract' })}`,
    '/standingBook/create': '/standingBook/create?mode=contract',
    '/myContract/detail': `/myContract/detail?contractId=${contract.id}`,
    '/contractApproval/detail': `/contractApproval/detail?id=${contract.id}&flowId=0&tab=PERFORMANCE_TAB&active=0`,
    '/template/detail': '/template/detail',
    '/templateApproval/detail': '/templateApproval/detail',
    '/manage/oppositeParty/externalDetail': party,
  };
  screens = [
    { name: 'ledger-scene', path: '/', ready: '[data-testid=scene-tab-contracts]' },
    { name: 'ledger', path: '/', ready: '[data-testid=ledger-row]', click: '[data-testid=scene-tab-contracts]' },
    ...specRoutePaths.flatMap((route) => {
      const path = specPaths[route];
      return path ? [{ name: route.slice(1).replaceAll('/', '-'), path, ready: '[data-testid=app-content] h1, [data-testid=app-content] h2, [data-testid=app-content] h3, [data-testid=app-content] h4, [data-testid=app-content] .bp6-tab-list' }] : [];
    }),
    ...['/templates', '/counterparties', '/projects', '/settings/numbering', '/settings/performances', '/settings/organisation', '/devices', '/settings/devices', '/settings/audit', '/ip', '/legal'].map((path) => ({
      name: path.slice(1).replaceAll('/', '-'),
      path,
      ready: '[data-testid=app-content] h2, [data-testid=app-content] h3',
    })),
    // The contract page's history tab: the audit trail's device and changes in words (no id).
    { name: 'contract-history', path: `/standingBook/detail?${new URLSearchParams({ contractId: draft.id, mode: 'contract', tab: 'HISTORY_TAB' })}`, ready: '[data-testid=contract-audit-event]' },
    ...(project ? [{ name: 'project', path: `/projects/${project}`, ready: '[data-testid=app-content] h2, [data-testid=app-content] h3' }] : []),
    ...(ip ? [{ name: 'ip-detail', path: `/ip/${ip}`, ready: '[data-testid=app-content] h2, [data-testid=app-content] h3' }] : []),
  ];
  expect(specRoutePaths.filter((route) => !specPaths[route])).toEqual([]);
}, 120_000);

afterAll(() => stage?.close());

/** Waits until the screen has drawn its content and no spinner is left. */
async function settled(ready: string) {
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=app-content] .bp6-spinner').length === 0, null, { timeout: 20_000 }).catch(() => undefined);
}

describe.each(uiLanguages)('every screen in $code', (language) => {
  beforeAll(async () => {
    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-contracts').waitFor({ timeout: 30_000 });
    await chooseLanguage(page, language);
  });

  it('shows every route and screen in the language alone, with no key, id or JSON', async () => {
    const out: string[] = [];
    for (const screen of screens) {
      await page.goto(`${stage.edition.host.url}${screen.path}`);
      if (screen.click) await page.locator(screen.click).click({ timeout: 20_000 });
      await settled(screen.ready);
      await keepScreenshot(page, `sweep-${screen.name}-${language.code}`);
      for (const finding of await findings(language.code)) out.push(`${screen.path}: ${finding.kind}: ${finding.text}`);
    }
    expect(out.join('\n')).toBe('');
  }, 120_000);

  it('shows the main dialogs in the language alone', async () => {
    const out: string[] = [];
    const row = (name: string) => `[data-testid=ledger-row]:has-text(${JSON.stringify(name)}) [data-testid=ledger-edit]`;
    const dialogs: { name: string; path: string; open: string; ready: string; select?: string; tab?: string; fill?: [selector: string, value: string] }[] = [
      { name: 'ledger-filters', path: '/', open: '[data-testid=ledger-filter-toggle]', ready: '.ledger-filters' },
      { name: 'manage-scenes', path: '/', open: '[data-testid=scene-manage]', ready: '.manage-scenes' },
      { name: 'scene-create', path: '/', open: '[data-testid=scene-add]', ready: '.scene-config' },
      { name: 'archive', path: '/', open: '[data-testid=archive-open]', ready: '.archive-dialog' },
      { name: 'credit-risk', path: '/', open: '[data-testid=ledger-credit-risk]', ready: '[data-testid=credit-risk-dialog]' },
      { name: 'transfer', path: '/', open: '[data-testid=transfer-open]', ready: '.transfer-dialog', select: '[data-testid=ledger-row] input[type=checkbox]' },
      { name: 'counterparty-create', path: '/counterparties', open: '[data-testid=counterparty-create]', ready: '.bp6-dialog' },
      { name: 'contract-edit-locked', path: '/', open: row(lockedName), ready: '[data-testid=contract-edit-locked]' },
      { name: 'contract-edit-draft', path: '/', open: row(draftName), ready: '[data-testid=contract-edit-save]' },
      { name: 'scoring', path: '/', open: '[data-testid=ledger-score]', ready: '.bp6-dialog' },
      { name: 'ip-create', path: '/ip', open: '[data-testid=ip-create]', ready: '.bp6-dialog' },
      { name: 'ip-org-create', path: '/ip', tab: '#bp6-tab-title_ip-tabs_organizations', open: '[data-testid=ip-org-create]', ready: '.bp6-dialog' },
      { name: 'law-firm-create', path: '/legal', open: '[data-testid=legal-create]', ready: '.bp6-dialog' },
      { name: 'lawyer-create', path: '/legal', tab: '#bp6-tab-title_legal-tabs_lawyers', open: '[data-testid=legal-create]', ready: '.bp6-dialog' },
      { name: 'case-type-create', path: '/legal', tab: '#bp6-tab-title_legal-tabs_caseTypes', open: '[data-testid=legal-create]', ready: '.bp6-dialog' },
      // The template editor's duplicate-number dialogs: one number that a template holds, and all.
      { name: 'template-number-duplicate', path: '/templates/edit', fill: ['[data-testid=template-number]', templateNumber], open: '[data-testid=template-number-check]', ready: '.bp6-dialog h5' },
      { name: 'template-number-check-all', path: '/templates/edit', open: '[data-testid=template-number-check-all]', ready: '.bp6-dialog' },
    ];
    for (const dialog of dialogs) {
      await page.goto(`${stage.edition.host.url}${dialog.path}`);
      if (dialog.path === '/') await page.getByTestId('scene-tab-contracts').click({ timeout: 20_000 });
      if (dialog.tab) await page.locator(dialog.tab).click({ timeout: 20_000 });
      const opener = page.locator(dialog.open).first();
      await opener.waitFor({ timeout: 20_000 });
      if (dialog.select) await setChecked(page.locator(dialog.select).first());
      if (dialog.fill) await page.fill(dialog.fill[0], dialog.fill[1]);
      await opener.click();
      await page.locator(dialog.ready).first().waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300);
      await keepScreenshot(page, `sweep-dialog-${dialog.name}-${language.code}`);
      for (const finding of await findings(language.code)) out.push(`${dialog.name}: ${finding.kind}: ${finding.text}`);
      await page.keyboard.press('Escape');
    }
    expect(out.join('\n')).toBe('');
  }, 120_000);
});
