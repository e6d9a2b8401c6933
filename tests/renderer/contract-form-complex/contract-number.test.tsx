// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DuplicateResult } from '../../../src-shared/form/field-config';
import type { FormServices } from '../../../src-renderer/features/contract-form/types';
import { fakeServices, field, renderField } from './support';

const numberField = field({ id: 'n', name: 'contract number', type: 'contractNumber' });
const rule = { id: 'r1', format: 'CG-20261121-0001', conditionType: 0 as const, values: [], referenceFields: [] };
const automatic = (isNumberEditor: boolean) => ({ refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [rule], isNumberEditor });
const now = '2026-11-28T08:00:00.000Z';
/** A duplicate check answering `value`: the server's now, unless `from` says the replica's. */
const checked = (value: { list: DuplicateResult[] }, from: { asOf: string; offline: boolean } = { asOf: now, offline: false }) =>
  vi.fn<FormServices['checkDuplicate']>(() => Promise.resolve({ value, ...from }));
const input = () => screen.getByRole('textbox', { name: 'contract number' }) as HTMLInputElement;

afterEach(cleanup);

describe('contract number', () => {
  it('is editable when no automatic rule applies', async () => {
    const view = renderField(numberField, { value: '' });
    await userEvent.type(input(), 'HT-1');
    expect(view.value()).toBe('HT-1');
    expect(screen.queryByRole('button', { name: 'Auto-numbering rules' })).toBeNull();
  });

  it('is locked with the rule preview popover (400 wide) when automatic and the user is no number editor', async () => {
    renderField(numberField, { services: fakeServices({ catalogue: automatic(false) }) });
    expect(input().disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Auto-numbering rules' }));
    const preview = await screen.findByText('CG-20261121-0001');
    expect((preview.closest('.contract-number__rules') as HTMLElement).style.width).toBe('400px');
  });

  it('stays editable for number editors even when automatic', () => {
    renderField(numberField, { services: fakeServices({ catalogue: automatic(true) }) });
    expect(input().disabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Auto-numbering rules' })).toBeNull();
  });

  it('asks for the number before checking duplicates', async () => {
    const view = renderField(numberField, { value: ' ' });
    await userEvent.click(screen.getByRole('button', { name: 'Check duplicates' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter the number');
    expect(view.services.checkDuplicate).not.toHaveBeenCalled();
  });

  it('opens the duplicate-number dialog with a view link per contract', async () => {
    const services = fakeServices({ checkDuplicate: checked({ list: [{ contractNumber: 'HT-1', contractList: [{ id: 'c9', name: 'Supply' }] }] }) });
    renderField(numberField, { services, value: 'HT-1', contractId: 'c1' });
    await userEvent.click(screen.getByRole('button', { name: 'Check duplicates' }));
    expect(await screen.findByText('This number duplicates the following contract numbers')).toBeTruthy();
    expect(services.checkDuplicate).toHaveBeenCalledWith({ contractNumber: 'HT-1', excludeId: 'c1' });
    // The server answered: nothing says "as of".
    expect(screen.queryByTestId('duplicate-check-as-of')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(services.openRoute).toHaveBeenCalledWith('/standingBook/detail?contractId=c9&mode=contract', { newWindow: true });
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('titles the dialog for no duplicates and for all numbers', async () => {
    const answer = checked({ list: [] });
    const services = fakeServices({ checkDuplicate: answer });
    renderField(numberField, { services, value: 'HT-2' });
    await userEvent.click(screen.getByRole('button', { name: 'Check duplicates' }));
    expect(await screen.findByText('No duplicates found yet')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Got it' }));
    answer.mockResolvedValue({ value: { list: [{ contractNumber: 'HT-3', contractList: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] }] }, asOf: now, offline: false });
    await userEvent.click(screen.getByRole('button', { name: 'Check all numbers' }));
    expect(answer).toHaveBeenLastCalledWith({ checkAll: 'true', excludeId: 'c1' });
    expect(await screen.findByText('View all duplicate numbers')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'View' })).toHaveLength(2);
  });

  it("checks against this device's numbers offline and says as of when", async () => {
    const services = fakeServices({ checkDuplicate: checked({ list: [{ contractNumber: 'HT-1', contractList: [{ id: 'c9', name: 'Supply' }] }] }, { asOf: '2026-11-20T08:00:00.000Z', offline: true }) });
    renderField(numberField, { services, value: 'HT-1' });
    await userEvent.click(screen.getByRole('button', { name: 'Check duplicates' }));
    expect(await screen.findByText('This number duplicates the following contract numbers')).toBeTruthy();
    expect(screen.getByTestId('duplicate-check-as-of').textContent).toMatch(/^Offline: as last read on .*2026/);
  });

  it.each(['offline', 'server_unreachable'])('says the check runs when online when the core answers %s (never synced)', async (code) => {
    const services = fakeServices({ checkDuplicate: vi.fn(() => Promise.reject({ code, message: 'away' })) });
    renderField(numberField, { services, value: 'HT-1' });
    await userEvent.click(screen.getByRole('button', { name: 'Check duplicates' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The duplicate check runs when the app is online');
  });

  it('shows the number as text in preview and locks it when disabled', () => {
    renderField(numberField, { value: 'HT-7', mode: 'preview' });
    expect(screen.getByText('HT-7')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    cleanup();
    renderField(numberField, { value: 'HT-7', mode: 'disabled' });
    expect(input().disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Check duplicates' })).toBeNull();
  });
});
