import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openE2eStage, type E2eStage } from '../support/e2e-stage';
import { cellsOnMoreThanOneLine, chooseLanguage, inEachLanguageAndSize, keepScreenshot, uiLanguages, setChecked } from '../support/e2e-views';
import { onServer, signInOnPage, untilOffline } from '../support/manage-e2e';

// Projects against the real server (issue 15): the list with its search and pages, create with
// the spec's message, edit, the project page (add a visible contract, open it, remove it),
// delete; a staff user is not offered another user's project to change, and the server refuses
// it; offline the list is shown as of its time and a write is refused at once.

let stage: E2eStage;
let page: Page;
const alice = { username: 'alice', password: 'alice123' };
const dialog = () => page.getByRole('dialog');
const rows = () => page.getByTestId('project-row');

beforeAll(async () => {
  stage = await openE2eStage({ contracts: 30, seed: 15 });
  page = stage.page;
});

afterAll(() => stage?.close());

async function searchProjects(text: string) {
  await page.getByTestId('projects-search').fill(text);
  await page.getByTestId('projects-search').press('Enter');
}

describe('projects', () => {
  it('lists the projects with pages and finds one by name', { timeout: 90_000 }, async () => {
    await signInOnPage(stage, alice.username, alice.password);
    await page.getByTestId('nav-projects').click();
    await expect.poll(() => rows().count(), { timeout: 20_000 }).toBe(20);
    const all = await onServer(stage, alice, 'projectList', { query: { pageSize: '50' } });
    expect(await page.getByTestId('pager-total').innerText()).toContain(String(all.count));
    await page.getByTestId('pager-next').click();
    await expect.poll(() => rows().first().innerText()).toContain(all.list[20]!.name);
    await searchProjects(all.list[3]!.name);
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().innerText()).toContain(all.list[3]!.name);
  });

  it('keeps each row\'s counts, people and times on one line, in both languages at both sizes', { timeout: 60_000 }, async () => {
    await searchProjects('');
    await expect.poll(() => rows().count(), { timeout: 20_000 }).toBe(20);
    const viewport = page.viewportSize()!;
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await keepScreenshot(page, `projects-${language.code}-${width}x${height}`);
      const wrapped = await cellsOnMoreThanOneLine(page.getByTestId('projects'), 'th, td:not(.manage__text)');
      expect(wrapped).toEqual([]);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize(viewport);
  });

  it('does not offer a staff user another user’s project to rename or delete, and the server refuses it', async () => {
    const all = await onServer(stage, alice, 'projectList', { query: { pageSize: '50' } });
    const me = await onServer(stage, alice, 'me');
    const notMine = all.list.find((project) => project.createdBy !== me.id)!;
    await searchProjects(notMine.name);
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().getByRole('button', { name: /edit|delete/i }).count()).toBe(0);
    await rows().first().getByRole('button', { name: notMine.name }).click();
    await page.getByTestId('project-name').waitFor();
    expect(await page.getByTestId('project-edit').count()).toBe(0);
    expect(await page.getByTestId('project-delete').count()).toBe(0);
    await expect(onServer(stage, alice, 'projectUpdate', { params: { id: notMine.id }, body: { name: 'Taken over' } })).rejects.toMatchObject({
      error: { code: 'forbidden' },
    });
    await page.getByRole('button', { name: 'All projects' }).click();
  });

  it('creates a project (the name is required), edits it, fills it with a contract, opens and removes it, and deletes it', { timeout: 90_000 }, async () => {
    await page.getByTestId('projects-create').click();
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByText('Please enter the project name').count()).toBe(1);
    await page.fill('#project-name', 'E2E warehouse project');
    await page.fill('#project-description', 'Contracts of the new warehouse');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().count()).toBe(0);
    await searchProjects('E2E warehouse');
    await expect.poll(() => rows().count()).toBe(1);
    // The same name again: the server's refusal says why, not that someone else changed a record.
    await page.getByTestId('projects-create').click();
    await page.fill('#project-name', 'E2E warehouse project');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByTestId('dialog-failure').innerText(), { timeout: 10_000 }).toBe('A project with this name already exists.');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog().count()).toBe(0);

    await rows().first().getByRole('button', { name: 'Edit' }).click();
    await page.fill('#project-name', 'E2E warehouse project phase 2');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => rows().first().innerText()).toContain('E2E warehouse project phase 2');
    const [created] = (await onServer(stage, alice, 'projectList', { query: { q: 'E2E warehouse' } })).list;
    expect(created).toMatchObject({ name: 'E2E warehouse project phase 2', description: 'Contracts of the new warehouse' });

    await rows().first().getByRole('button', { name: 'E2E warehouse project phase 2' }).click();
    await expect.poll(() => page.getByTestId('project-name').innerText()).toBe('E2E warehouse project phase 2');
    await page.getByTestId('project-add-contracts').click();
    await expect.poll(() => dialog().getByTestId('visible-contract').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const contractName = await dialog().getByTestId('visible-contract').first().locator('td').nth(1).innerText();
    await setChecked(dialog().getByTestId('visible-contract').first().getByRole('checkbox'));
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => page.getByTestId('project-contract').count()).toBe(1);
    expect(await page.getByTestId('project-contract').innerText()).toContain(contractName);
    expect((await onServer(stage, alice, 'projectContracts', { params: { id: created!.id } })).list.map((c) => c.name)).toEqual([contractName]);

    await page.getByTestId('project-contract').getByRole('button', { name: contractName }).click();
    await expect.poll(() => page.url()).toContain('/standingBook/detail?id=');
    await page.goBack();
    await page.getByTestId('project-contract').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('project-contract').count()).toBe(0);
    expect((await onServer(stage, alice, 'projectContracts', { params: { id: created!.id } })).count).toBe(0);

    await page.getByTestId('project-delete').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.url()).toMatch(/\/projects$/);
    expect((await onServer(stage, alice, 'projectList', { query: { q: 'E2E warehouse' } })).count).toBe(0);
  });

  it('searches the add-contracts dialog as the user types and on Enter, keeping the dialog and the URL', { timeout: 90_000 }, async () => {
    await page.getByTestId('projects-create').click();
    await page.fill('#project-name', 'E2E search project');
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().count()).toBe(0);
    await searchProjects('E2E search project');
    await expect.poll(() => rows().count()).toBe(1);
    await rows().first().getByRole('button', { name: 'E2E search project' }).click();
    await page.getByTestId('project-add-contracts').click();
    const offered = dialog().getByTestId('visible-contract');
    await expect.poll(() => offered.count(), { timeout: 20_000 }).toBeGreaterThan(1);
    const all = await onServer(stage, alice, 'contractListVisible', { query: { pageSize: '50', withoutProject: 'true' } });
    const wanted = all.list.find((contract) => all.list.filter((other) => other.name.includes(contract.name)).length === 1)!;
    const url = page.url();

    // Typing alone filters, once typing pauses.
    await dialog().getByTestId('visible-search').pressSequentially(wanted.name, { delay: 20 });
    await expect.poll(() => offered.allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining(wanted.name)]);
    // Enter searches again and neither submits the dialog nor leaves the page.
    await dialog().getByTestId('visible-search').fill('');
    await dialog().getByTestId('visible-search').press('Enter');
    await expect.poll(() => offered.count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await dialog().getByTestId('visible-search').fill(wanted.name);
    await dialog().getByTestId('visible-search').press('Enter');
    await expect.poll(() => offered.allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining(wanted.name)]);
    expect(page.url()).toBe(url);
    expect(page.url()).not.toContain('?');
    expect(await dialog().count()).toBe(1);
    expect((await onServer(stage, alice, 'projectList', { query: { q: 'E2E search project' } })).list[0]?.contractCount).toBe(0);

    const viewport = page.viewportSize()!;
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await inEachLanguageAndSize(page, async (language, { width, height }) => {
      await page.getByTestId('project-add-contracts').click();
      await dialog().getByTestId('visible-search').fill(wanted.name);
      await expect.poll(() => offered.count(), { timeout: 10_000 }).toBe(1);
      await keepScreenshot(page, `projects-add-contracts-${language.code}-${width}x${height}`);
      await dialog().getByTestId('visible-search').press('Escape');
      await expect.poll(() => dialog().count()).toBe(0);
    });
    await chooseLanguage(page, uiLanguages[0]);
    await page.setViewportSize(viewport);
    await page.getByTestId('nav-projects').click();
  });

  it('offline: shows the list as last read, with its time, and refuses a new project at once', { timeout: 60_000 }, async () => {
    await searchProjects('');
    await expect.poll(() => rows().count()).toBe(20);
    const firstRow = await rows().first().innerText();
    await stage.stopServer();
    await untilOffline(page);
    await page.getByTestId('nav-ledger').click();
    await page.getByTestId('nav-projects').click();
    await expect.poll(() => page.getByTestId('as-of-note').innerText(), { timeout: 20_000 }).toMatch(/^Offline: as last read on .*\d/);
    expect(await rows().count()).toBe(20);
    expect(await rows().first().innerText()).toBe(firstRow);
    await page.getByTestId('projects-create').click();
    await page.fill('#project-name', 'Never written');
    const clicked = Date.now();
    await page.getByTestId('dialog-submit').click();
    await expect.poll(() => dialog().getByTestId('dialog-failure').innerText(), { timeout: 2_000 }).toContain('cannot be reached now');
    expect(Date.now() - clicked).toBeLessThan(2_000);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await stage.startServer();
  });
});
