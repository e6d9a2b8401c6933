import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName, type EndpointResponse } from '../../src-shared/api/endpoints';
import type { Clause, FieldConfig } from '../../src-shared/domain/contract-forms';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { call } from '../support/core';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// Contract drafting in the browser edition (issue 6): a template made on the server reaches the
// offline catalogue; a contract drafted from it while the server is stopped is saved on the
// device with a provisional number and syncs once the server is back; the form's messages, the
// duplicate-number dialog, alteration-mode editability and the upload states, in Chromium.

let stage: E2eStage;
let page: Page;
let token = '';
let templateId = '';

const templateName = 'E2E supply template';
const fields: FieldConfig[] = [
  { id: 'contractName', name: 'contract name', type: 'text', required: true, maxlength: 200 },
  { id: 'contractNumber', name: 'contract number', type: 'contractNumber' },
  { id: 'deliveryPlace', name: 'delivery place', type: 'text', required: true, alterEditStatus: 2 },
  { id: 'remark', name: 'remark', type: 'textarea', maxlength: 1000, alterEditStatus: 2 },
  { id: 'quantity', name: 'quantity', type: 'number' },
  { id: 'attachment', name: 'attachment', type: 'upload' },
  { id: 'payment', name: 'payment terms', type: 'clause', required: true },
];
const clauses: Clause[] = [
  {
    labelID: 'payment',
    name: 'payment terms',
    isNullable: false,
    bookmarkName: 'bm_payment',
    statementList: [
      {
        id: 1,
        name: 'in one payment',
        content: [[{ type: 'text', text: 'The buyer pays within ' }, { type: 'field', fieldId: 'payDays' }, { type: 'text', text: ' days.' }]],
        fieldList: [{ id: 'payDays', name: 'days to pay', type: 'number', required: true }],
        labelItemList: [],
      },
      { id: 2, name: 'in instalments', content: [[{ type: 'text', text: 'The buyer pays in instalments.' }]], fieldList: [], labelItemList: [] },
    ],
  },
];

const row = (fieldId: string) => page.getByTestId(`field-${fieldId}`);
const input = (fieldId: string) => page.locator(`#contract-form-input-${fieldId}`);
const fieldError = (fieldId: string) => page.getByTestId(`field-error-${fieldId}`).innerText();
const toast = () => page.locator('.bp6-toast').last().innerText();

async function api() {
  return createContractServerClient(stage.serverUrl);
}

/** A server call on an endpoint with path parameters (the core's client sends none), as admin. */
async function onServer<N extends EndpointName>(name: N, params: Record<string, string>, body?: unknown): Promise<EndpointResponse<N>> {
  const endpoint = endpoints[name];
  const path = endpoint.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key]!));
  const response = await fetch(`${stage.serverUrl}${path}`, {
    method: endpoint.method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: unknown; message: string };
  if (!response.ok) throw new Error(`${name}: ${envelope.message}`);
  return endpoint.response.parse(envelope.data) as EndpointResponse<N>;
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 12,
    seed: 61,
    core: { syncSoonMs: 100, syncBackoffMs: 300 },
    prepare: async (server) => {
      const client = createContractServerClient(server.url);
      token = (await client.call('login', { body: { username: 'admin', password: 'admin123' } })).token;
      // The template takes the contract type of a seeded one, so the type's numbering rule numbers its drafts.
      const seeded = await client.call('templateList', { token, query: { pageNum: 1, pageSize: 20 } });
      const contractTypeId = seeded.list.find((t) => t.contractTypeId !== null)!.contractTypeId;
      const template = await client.call('createTemplate', { token, body: { name: templateName, contractTypeId, fields, clauses } });
      templateId = template.id;
    },
  });
  page = stage.page;
  await onServer('submitTemplate', { id: templateId }, {});
  await onServer('approveTemplate', { id: templateId }, {});
});

afterAll(() => stage?.close());

/** The create action opens /standingBook/create in a new tab; the template is drafted on /template/detail. */
async function openTemplateDraft(): Promise<Page> {
  const opened = page.context().waitForEvent('page');
  await page.getByTestId('ledger-create').click();
  const tab = await opened;
  await tab.waitForURL(/\/standingBook\/create\?mode=contract$/);
  const option = tab.getByTestId('contract-template').locator('option', { hasText: templateName });
  await expect.poll(() => option.count(), { timeout: 20_000 }).toBe(1);
  await tab.getByTestId('contract-template').selectOption((await option.getAttribute('value'))!);
  await tab.waitForURL(/\/template\/detail$/);
  await tab.getByTestId('contract-draft').waitFor();
  return tab;
}

describe('drafting a contract from a template', () => {
  it('signs in and syncs', async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 20_000 }).toBe('12');
  });

  it('shows each message of the form, and validation failed, when saving an empty draft', async () => {
    const tab = await openTemplateDraft();
    const previous = page;
    page = tab;
    try {
      await page.getByTestId('contract-save').click();
      await expect.poll(() => toast()).toContain('Validation failed');
      expect(await fieldError('contractName')).toBe('Please enter contract name');
      expect(await fieldError('deliveryPlace')).toBe('Please enter delivery place');
      expect(await fieldError('payment')).toBe('Please select payment terms');
      // Contract names lose the characters a file name cannot hold, as typed (spec 5).
      await input('contractName').fill('Supply: steel? "2026" <A/B>|x*：？');
      expect(await input('contractName').inputValue()).toBe('Supply steel 2026 ABx');
    } finally {
      await tab.close();
      page = previous;
    }
  });

  /** Drafts a contract from the template in a new tab with the server stopped; the tab shows its detail. */
  async function draftOffline(name: string) {
    const tab = await openTemplateDraft();
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await tab.locator('#contract-form-input-contractName').fill(name);
    await tab.locator('#contract-form-input-deliveryPlace').fill('Shanghai port');
    await tab.locator('#contract-form-input-quantity').fill('12.5');
    await tab.getByTestId('field-payment').getByRole('combobox').selectOption({ label: 'in one payment' });
    await tab.getByTestId('field-payment').getByLabel('days to pay').fill('30');
    await expect.poll(() => tab.getByTestId('field-payment').innerText()).toContain('The buyer pays within 30 days.');
    await tab.getByTestId('contract-save').click();
    await tab.waitForURL(/\/standingBook\/detail\?id=/);
    expect(await tab.getByTestId('contract-detail-name').innerText()).toBe(name);
    await tab.getByTestId('contract-number-provisional').waitFor();
    await tab.getByTestId('contract-pending').waitFor();
    return { tab, id: new URL(tab.url()).searchParams.get('id')!, provisional: await tab.getByTestId('contract-detail-number').innerText() };
  }

  /** Starts the server again and waits for the tab's draft to reach it; the number it ended with. */
  async function syncDraft(tab: Page): Promise<string> {
    await stage.startServer();
    await expect.poll(() => tab.getByTestId('contract-pending').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => tab.getByTestId('contract-number-provisional').count()).toBe(0);
    return tab.getByTestId('contract-detail-number').innerText();
  }

  it('drafts while the server is stopped: saved with a provisional number the server confirms on sync', { timeout: 90_000 }, async () => {
    const { tab, id, provisional } = await draftOffline('Drafted on a plane');
    try {
      expect(await syncDraft(tab)).toBe(provisional);
      expect(await tab.getByTestId('number-notice').count()).toBe(0);
      const saved = await onServer('contractDetail', { id });
      expect(saved).toMatchObject({ name: 'Drafted on a plane', contractNumber: provisional, templateId });
      expect(saved.formValues).toMatchObject({ contractName: 'Drafted on a plane', deliveryPlace: 'Shanghai port', quantity: '12.5', payment: { statementId: 1 } });
    } finally {
      await tab.close();
    }
  });

  it('says so when the server replaced a provisional number on sync, until dismissed', { timeout: 90_000 }, async () => {
    // A contract of the same type made on the server meanwhile takes the number the device expects.
    const client = await api();
    await client.call('createContract', { token, body: { name: 'Made on the server', templateId, formValues: { contractName: 'Made on the server', deliveryPlace: 'Tianjin', payment: { statementId: 2, fieldList: [], values: {} } } } });
    const { tab, id, provisional } = await draftOffline('Drafted on a train');
    try {
      const confirmed = await syncDraft(tab);
      expect(confirmed).not.toBe(provisional);
      await expect.poll(() => tab.getByTestId('number-notice-text').innerText()).toBe(
        `The number ${provisional} of “Drafted on a train” was already taken on the server: it is now ${confirmed}.`,
      );
      expect(await onServer('contractDetail', { id })).toMatchObject({ contractNumber: confirmed });
      await tab.getByTestId('number-notice-dismiss').click();
      await expect.poll(() => tab.getByTestId('number-notice').count()).toBe(0);
    } finally {
      await tab.close();
    }
  });

  it('opens the duplicate-number dialog with a view link per contract', async () => {
    const client = await api();
    const { list } = await client.call('contractList', { token, query: { pageNum: 1, pageSize: 5 } });
    const taken = list.find((c) => c.contractNumber)!;
    const tab = await openTemplateDraft();
    const previous = page;
    page = tab;
    try {
      await row('contractNumber').locator('input').fill(taken.contractNumber!);
      await row('contractNumber').getByRole('button', { name: 'check duplicate' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.locator('.bp6-dialog-header').innerText()).toBe('This number duplicates the following contract numbers');
      expect(await dialog.innerText()).toContain(taken.name);
      expect(await dialog.getByRole('button', { name: 'View' }).count()).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: 'Got it' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    } finally {
      await tab.close();
      page = previous;
    }
  });

  it('shows the upload states: progress, kept on the device with view, edit and delete, cancel, a refusal and the format message', { timeout: 60_000 }, async () => {
    const tab = await openTemplateDraft();
    const previous = page;
    page = tab;
    // Holds the core's chunk handling (the web host calls stage.core.invoke per frame), so the
    // uploading state is seen for certain instead of racing a fast local upload.
    const invoke = stage.core.invoke;
    let held: { promise: Promise<void>; release: () => void } | null = null;
    const hold = () => {
      let release = () => undefined as void;
      held = { promise: new Promise<void>((resolve) => (release = resolve)), release };
      return held;
    };
    let chunks = 0;
    stage.core.invoke = async (channel, request) => {
      if (channel === 'files.uploadChunk' && (chunks += 1) === 2 && held) await held.promise;
      return invoke(channel, request);
    };
    const storedFiles = () => (existsSync(join(stage.serverDir, 'files')) ? readdirSync(join(stage.serverDir, 'files')) : []);
    const temporaryFiles = () => (existsSync(join(stage.desktopDir, 'transfers', 'uploads')) ? readdirSync(join(stage.desktopDir, 'transfers', 'uploads')) : []);
    // Four chunks: after the first, a third of the bytes are sent.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * 256 * 1024, 0x20)]);
    try {
      const upload = page.getByTestId('upload-attachment');
      const picker = upload.locator('input[type=file]');
      const before = storedFiles().length;

      const first = hold();
      await picker.setInputFiles({ name: 'terms.pdf', mimeType: 'application/pdf', buffer: pdf });
      await expect.poll(() => upload.getByRole('status').innerText()).toContain('Uploading terms.pdf');
      await expect.poll(() => upload.getByLabel('33%').count()).toBe(1);
      first.release();
      await expect.poll(() => upload.locator('.upload-field__name').innerText()).toBe('terms.pdf');
      for (const action of ['View', 'Edit', 'Delete']) expect(await upload.getByRole('button', { name: action, exact: true }).count()).toBe(1);
      // Kept on the device (issue 30): it reaches the server with the draft that names it, not before.
      expect(storedFiles()).toHaveLength(before);
      expect(temporaryFiles()).toEqual([]);

      // The browser edition cannot open what the core downloads: it says so.
      await upload.getByRole('button', { name: 'View', exact: true }).click();
      await expect.poll(toast).toContain('Attachments open in the desktop app');

      await upload.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect.poll(() => upload.getByRole('button', { name: 'Choose a file or drop it here' }).count()).toBe(1);

      // Cancel while a chunk is held: back to idle, nothing stored, no temporary file left.
      chunks = 0;
      const second = hold();
      await picker.setInputFiles({ name: 'draft.pdf', mimeType: 'application/pdf', buffer: pdf });
      await upload.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect.poll(() => upload.getByRole('button', { name: 'Choose a file or drop it here' }).count()).toBe(1);
      second.release();
      await expect.poll(temporaryFiles).toEqual([]);
      expect(storedFiles()).toHaveLength(before);

      // The server refuses a PDF that is not one: 'upload failed' with a re-upload.
      held = null;
      await picker.setInputFiles({ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
      await expect.poll(() => upload.innerText()).toContain('Upload failed');
      expect(await upload.getByRole('button', { name: 'Upload again' }).count()).toBe(1);

      await picker.setInputFiles({ name: 'virus.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
      await expect.poll(() => upload.innerText()).toContain('The current file format is not supported');
      expect(storedFiles()).toHaveLength(before);
    } finally {
      stage.core.invoke = invoke;
      await tab.close();
      page = previous;
    }
  });
});

describe('a contract’s detail', () => {
  it('opens from the ledger row’s view in a new tab, in preview', async () => {
    await page.goto(stage.edition.host.url);
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    const first = page.getByTestId('ledger-row').first();
    await first.waitFor();
    // The first cell is the row's selection (batch transfer); the name follows.
    const name = await first.locator('td').nth(1).innerText();
    const opened = page.context().waitForEvent('page');
    await first.getByRole('link', { name: 'View' }).click();
    const tab = await opened;
    try {
      await tab.waitForURL(/\/standingBook\/detail\?contractId=[^&]+&mode=contract$/);
      await expect.poll(() => tab.getByTestId('contract-detail-name').innerText(), { timeout: 20_000 }).toBe(name);
      expect(await tab.getByTestId('contract-detail').getAttribute('data-mode')).toBe('view');
      // Its cooperation information, from the replica: in preview the first 2 of the counterparty's other contracts.
      const history = await call(stage.core, 'contract.cooperation', { id: new URL(tab.url()).searchParams.get('contractId')! });
      await tab.getByTestId('contract-tab-COOPERATION_TAB').click();
      const section = tab.getByRole('region', { name: 'Cooperation information' });
      await section.waitFor();
      const shown = section.locator('tbody tr');
      await expect.poll(() => shown.count()).toBe(Math.max(1, Math.min(2, history.length)));
      expect(await shown.first().innerText()).toContain(history[0]?.name ?? 'No data');
    } finally {
      await tab.close();
    }
  });

  it('says so when a deep link names a contract the replica does not hold', async () => {
    await page.goto(`${stage.edition.host.url}/standingBook/detail?contractId=abc&mode=contract`);
    await expect.poll(() => page.getByTestId('contract-screen-error').innerText()).toBe("The contract could not be read from the local data.\nThe contract is not in this device's data: it is not synced yet, or not yours to see.");
  });
});

describe('contract alteration', () => {
  it('opens only the fields an alteration may change, asks for the reason and saves the change', async () => {
    const client = await api();
    const contract = await client.call('createContract', {
      token,
      body: { name: 'Approved supply', templateId, formValues: { contractName: 'Approved supply', deliveryPlace: 'Tianjin', payment: { statementId: 2, fieldList: [], values: {} } } },
    });
    await onServer('submitContract', { id: contract.id }, {});
    await onServer('approveContract', { id: contract.id }, {});
    await call(stage.core, 'sync.now', {});
    await page.goto(`${stage.edition.host.url}/standingBook/detail?${new URLSearchParams({ id: contract.id })}`);
    await expect.poll(() => page.getByTestId('contract-detail-name').innerText(), { timeout: 20_000 }).toBe('Approved supply');
    await page.getByTestId('contract-alter').click();
    expect(await page.getByTestId('contract-detail').getAttribute('data-mode')).toBe('alter');
    for (const [fieldId, mode] of [
      ['deliveryPlace', 'edit'],
      ['remark', 'edit'],
      ['contractName', 'disabled'],
      ['contractNumber', 'disabled'],
      ['attachment', 'disabled'],
    ] as const) {
      expect(await row(fieldId).getAttribute('data-mode'), fieldId).toBe(mode);
    }
    await input('deliveryPlace').fill('Ningbo');
    await page.getByTestId('alteration-save').click();
    await expect.poll(() => page.getByTestId('alteration-reason').locator('xpath=ancestor::*[contains(@class,"bp6-form-group")]').innerText()).toContain('Please enter the reason');
    await page.getByTestId('alteration-reason').fill('price agreed again');
    await page.getByTestId('alteration-save').click();
    await expect.poll(() => page.getByTestId('contract-detail').getAttribute('data-mode')).toBe('view');
    await expect.poll(async () => (await onServer('contractAlterations', { id: contract.id })).list.length, { timeout: 30_000 }).toBe(1);
    const { list } = await onServer('contractAlterations', { id: contract.id });
    expect(list[0]).toMatchObject({ reason: 'price agreed again', changes: [expect.objectContaining({ fieldId: 'deliveryPlace', after: 'Ningbo' })] });
  });
});
