import type { Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName, type EndpointResponse } from '../../src-shared/api/endpoints';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { contracts, counterparties, templates } from '../../src-server/db/schema';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { submitSignIn } from '../support/manage-e2e';

// The counterparty in the contract form against the real server (issue 11): the party detail
// dialog shows the party's basic information, scoring from the form loads, checks, saves and
// resets, and a draft's party field says what is missing rather than failing.

let stage: E2eStage;
let page: Page;
let token = '';
/** A seeded contract given the purchase template and its outer counterparty in the form. */
const scored = { contractId: '', partyId: '', partyName: '' };
const purchaseTemplate = '采购合同标准模板';

/** A server call on an endpoint with path parameters, as admin. */
async function onServer<N extends EndpointName>(name: N, params: Record<string, string>): Promise<EndpointResponse<N>> {
  const endpoint = endpoints[name];
  const path = endpoint.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key]!));
  const response = await fetch(`${stage.serverUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const envelope = (await response.json()) as { data: unknown; message: string };
  if (!response.ok) throw new Error(`${name}: ${envelope.message}`);
  return endpoint.response.parse(envelope.data) as EndpointResponse<N>;
}

beforeAll(async () => {
  stage = await openE2eStage({
    contracts: 15,
    seed: 41,
    seeded: async (db) => {
      // The terms a contract drafted from the template would carry (the seed gives its contracts none).
      const [template] = await db.select({ id: templates.id }).from(templates).where(eq(templates.name, purchaseTemplate));
      const [row] = await db
        .select({ id: contracts.id, name: contracts.name, partyId: counterparties.id, partyName: counterparties.name })
        .from(contracts)
        .innerJoin(counterparties, and(eq(counterparties.id, contracts.counterpartyId), eq(counterparties.type, 2)))
        .limit(1);
      Object.assign(scored, { contractId: row!.id, partyId: row!.partyId, partyName: row!.partyName });
      await db
        .update(contracts)
        .set({ templateId: template!.id, formValues: { contractName: row!.name, counterparty: [{ id: row!.partyId, name: row!.partyName }] } })
        .where(eq(contracts.id, row!.id));
    },
    prepare: async (server) => {
      token = (await createContractServerClient(server.url).call('login', { body: { username: 'admin', password: 'admin123' } })).token;
    },
  });
  page = stage.page;
});

afterAll(() => stage?.close());

const partyField = () => page.getByTestId('field-counterparty');
const dialog = () => page.getByRole('dialog');

describe('the counterparty in the contract form', () => {
  it('signs in and opens the contract with its counterparty', { timeout: 60_000 }, async () => {
    await submitSignIn(stage, 'admin', 'admin123');
    await page.getByTestId('scene-tab-contracts').click({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('ledger-count-all').innerText(), { timeout: 20_000 }).toBe('15');
    await page.goto(`${stage.edition.host.url}/standingBook/detail?id=${scored.contractId}`);
    await expect.poll(() => partyField().innerText(), { timeout: 20_000 }).toContain(scored.partyName);
  });

  it('shows the counterparty’s basic information in the party detail dialog', async () => {
    const expected = await onServer('counterpartExternalDetail', { id: scored.partyId });
    // By keyboard: where the system has no CJK font the Chinese name renders 0 px wide (issue 11, another item).
    await partyField().getByRole('button', { name: scored.partyName }).focus();
    await page.keyboard.press('Enter');
    const detail = dialog().getByTestId('party-detail');
    await dialog().waitFor();
    await detail.waitFor();
    const text = await detail.innerText();
    expect(text).toContain(scored.partyName);
    expect(text).toContain(expected.idNumber ?? '--');
    expect(text).toContain(String(expected.riskCount));
    expect(await dialog().innerText()).not.toMatch(/validation failed/i);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
  });

  it('scores the counterparty from the form: 800 px, checks on blur, saves, and resets on close', { timeout: 60_000 }, async () => {
    await partyField().getByRole('button', { name: /score/i }).click();
    await expect.poll(() => dialog().locator('input[id^=score-]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // Measured once the opening transition (a zoom) is over.
    await expect.poll(() => dialog().evaluate((element) => element.getBoundingClientRect().width)).toBe(800);
    expect(await dialog().getByPlaceholder(/please enter score explanation/i).count()).toBe(1);
    const inputs = dialog().locator('input[id^=score-]');
    const count = await inputs.count();

    await dialog().getByRole('button', { name: /confirm/i }).click();
    await expect.poll(() => dialog().getByText(/this field cannot be empty/i).count()).toBe(count);

    const before = await onServer('scoreDetail', { id: scored.contractId });
    const criteria = before.resultItems.flatMap((group) => group.children);
    await inputs.first().fill(String(criteria[0]!.maxScore + 1));
    await inputs.first().blur();
    await expect.poll(() => dialog().getByText(/score cannot be greater than (the )?full score/i).count()).toBe(1);

    for (const [at, criterion] of criteria.entries()) await dialog().locator(`#score-${criterion.id}`).fill(String(Math.min(at + 1, criterion.maxScore)));
    await dialog().getByPlaceholder(/please enter score explanation/i).fill('Delivered on time');
    await dialog().getByRole('button', { name: /confirm/i }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(() => partyField().getByRole('status').innerText()).toMatch(/operation successful/i);

    const after = await onServer('scoreDetail', { id: scored.contractId });
    expect(after.comment).toBe('Delivered on time');
    expect(after.resultItems.flatMap((group) => group.children).map((c) => c.actualScore)).toEqual(criteria.map((c, at) => Math.min(at + 1, c.maxScore)));

    // What is typed and not confirmed is gone once the dialog closes: it opens on the saved scores.
    await partyField().getByRole('button', { name: /score/i }).click();
    const first = dialog().locator(`#score-${criteria[0]!.id}`);
    await expect.poll(() => first.inputValue(), { timeout: 20_000 }).toBe('1');
    await first.fill('0');
    await dialog().getByRole('button', { name: /cancel/i }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await partyField().getByRole('button', { name: /score/i }).click();
    await expect.poll(() => dialog().locator(`#score-${criteria[0]!.id}`).inputValue(), { timeout: 20_000 }).toBe('1');
    await page.keyboard.press('Escape');
  });

  it('scores with the server stopped: the detail as of its read, the score waits to sync, shown when reopened, on the server once it is back', { timeout: 90_000 }, async () => {
    const before = await onServer('scoreDetail', { id: scored.contractId });
    const criteria = before.resultItems.flatMap((group) => group.children);
    await stage.stopServer();
    await expect.poll(() => page.getByTestId('sync-indicator').getAttribute('data-online'), { timeout: 20_000 }).toBe('false');
    await partyField().getByRole('button', { name: /score/i }).click();
    await expect.poll(() => dialog().getByTestId('score-as-of').count(), { timeout: 20_000 }).toBe(1);
    for (const criterion of criteria) await dialog().locator(`#score-${criterion.id}`).fill(String(criterion.maxScore));
    await dialog().getByPlaceholder(/please enter score explanation/i).fill('Scored on the train');
    await dialog().getByRole('button', { name: /confirm/i }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(() => partyField().getByRole('status').innerText()).toMatch(/saved on this device/i);

    await partyField().getByRole('button', { name: /score/i }).click();
    await expect.poll(() => dialog().getByTestId('score-queued').count(), { timeout: 20_000 }).toBe(1);
    expect(await dialog().getByPlaceholder(/please enter score explanation/i).inputValue()).toBe('Scored on the train');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);

    await stage.startServer();
    await expect.poll(async () => (await onServer('scoreDetail', { id: scored.contractId })).comment, { timeout: 30_000 }).toBe('Scored on the train');
    const after = await onServer('scoreDetail', { id: scored.contractId });
    expect(after).toMatchObject({ totalScore: after.maxTotalScore, version: before.version! + 1 });
  });

  it('on a new draft: asks for a party before scoring; a new party is refused only when left empty', { timeout: 60_000 }, async () => {
    await page.goto(`${stage.edition.host.url}/standingBook/create?mode=contract`);
    const option = page.getByTestId('contract-template').locator('option', { hasText: purchaseTemplate });
    await expect.poll(() => option.count(), { timeout: 20_000 }).toBe(1);
    await page.getByTestId('contract-template').selectOption((await option.getAttribute('value'))!);
    await page.getByTestId('contract-draft').waitFor();

    await partyField().getByRole('button', { name: /score/i }).click();
    await expect.poll(() => partyField().getByRole('alert').innerText()).toMatch(/please select an external party first/i);

    await partyField().getByRole('textbox').first().click();
    await partyField().getByRole('button', { name: /new party/i }).click();
    const newName = partyField().getByRole('textbox', { name: /name of the new party/i });
    await expect.poll(() => newName.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.getByTestId('field-error-counterparty').count()).toBe(0);

    await page.getByTestId('contract-save').click();
    await expect.poll(() => page.getByTestId('field-error-counterparty').innerText()).toMatch(/相对方/);
    await newName.fill('Draft Co');
    await expect.poll(() => page.getByTestId('field-error-counterparty').count()).toBe(0);
  });
});
