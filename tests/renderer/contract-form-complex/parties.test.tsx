// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fieldConfigSchema } from '../../../src-shared/domain/contract-forms';
import { formFieldSchema, type PartyValue } from '../../../src-shared/form/field-config';
import type { PartySearchResult } from '../../../src-shared/ipc/drafting';
import type { FormServices } from '../../../src-renderer/features/contract-form/types';
import { fakeServices, field, renderField } from './support';

const outer = field({ id: 'p', name: 'counterparty', type: 'inputSelect', partyType: 2 });
const acme: PartyValue = { id: 'a1', name: 'Acme Ltd' };

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Acme Ltd's external detail, as the server answers it. */
const acmeDetail = {
  id: 'a1', type: 2, subtype: 1, subType: 'organization', name: 'Acme Ltd', keyword: null, idNumber: '91310000', address: 'Shanghai',
  contactInfo: null, email: null, fax: null, rating: 40, ratingRemark: null, isConnectedTransaction: false, banks: [], contacts: [],
  registration: null, updaterName: null, createTime: '2026-01-01', updateTime: '2026-01-01', version: 1, riskCount: 3, refreshTime: null, cooperationCount: 0, totalAmount: [], averageScore: null, cooperationContracts: [],
};

describe('party picker', () => {
  it('searches 750 ms after typing stops, then adds the chosen party', async () => {
    vi.useFakeTimers();
    const services = fakeServices({ searchParties: vi.fn(() => Promise.resolve({ list: [{ id: 'a1', name: 'Acme Ltd', partyType: 2 as const, creditCode: null }], count: 1 })) });
    const view = renderField(outer, { services, value: [] });
    const input = screen.getByRole('textbox', { name: 'counterparty' });
    fireEvent.change(input, { target: { value: 'Ac' } });
    act(() => vi.advanceTimersByTime(500));
    fireEvent.change(input, { target: { value: 'Acme' } });
    act(() => vi.advanceTimersByTime(749));
    expect(services.searchParties).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(services.searchParties).toHaveBeenCalledTimes(1);
    expect(services.searchParties).toHaveBeenCalledWith({ keyword: 'Acme', partyType: 2, pageNum: 1, pageSize: 10 });
    fireEvent.click(screen.getByText('Acme Ltd'));
    expect(view.value()).toEqual([{ id: 'a1', name: 'Acme Ltd' }]);
  });

  it('refuses an eleventh party with the spec message', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, name: `party ${i}` }));
    renderField(outer, { value: ten });
    await userEvent.click(screen.getByRole('button', { name: 'New party' }));
    expect(screen.getByRole('alert').textContent).toBe('At most 10 parties can be added');
  });

  it('holds one party when counterpartMultiple is 1: a new party takes the place of the chosen one, through the parsed field config', async () => {
    const config = fieldConfigSchema.parse({ id: 'p', name: 'counterparty', type: 'inputSelect', partyType: 2, counterpartMultiple: 1 });
    const single = formFieldSchema.parse(config);
    expect(single.counterpartMultiple).toBe(1);
    const view = renderField(single, { value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'New party' }));
    expect(view.value()).toEqual([{ id: 0, name: '' }]);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name of the new party' }));
  });

  it('adds a new party beside the chosen ones in a field of several', async () => {
    const view = renderField(outer, { value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'New party' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of the new party' }), 'Newco');
    expect(view.value()).toEqual([acme, { id: 0, name: 'Newco' }]);
  });

  it('warns when a blacklisted or risky counterparty is chosen, and fills the party from its details', async () => {
    const results: PartySearchResult[] = [
      { id: 'b1', name: 'Shady Ltd', partyType: 2 as const, creditCode: null, fieldDetailMap: { rating: 40, riskCount: 0, keyword: 'SHADY' }, contactItemList: [{ name: 'Li Si', phone: '139', email: null, title: null }] },
      { id: 'r1', name: 'Risky Co', partyType: 2 as const, creditCode: null, fieldDetailMap: { rating: 20, riskCount: 3 } },
    ];
    const services = fakeServices({ searchParties: vi.fn(() => Promise.resolve({ list: results, count: 2 })) });
    const view = renderField(outer, { services, value: [] });
    await userEvent.type(screen.getByRole('textbox', { name: 'counterparty' }), 'S');
    await userEvent.click(await screen.findByText('Shady Ltd', {}, { timeout: 2000 }));
    expect(view.value()).toEqual([{ id: 'b1', name: 'Shady Ltd', keyword: 'SHADY', contactsName: 'Li Si', contactsPhone: '139' }]);
    expect(screen.getByTestId('party-risk-p').textContent).toBe('Shady Ltd is on the blacklist (credit rating: blacklist). Check before contracting with it.');
    await userEvent.type(screen.getByRole('textbox', { name: 'counterparty' }), 'R');
    await userEvent.click(await screen.findByText('Risky Co', {}, { timeout: 2000 }));
    expect(screen.getByTestId('party-risk-p').textContent).toBe('Risky Co has 3 reported risks. Check its credit risk before contracting with it.');
  });

  it('fills the detail fields grouped under the party field or under the party key of the user’s organisation (spec 6)', async () => {
    const result: PartySearchResult = { id: 'c1', name: 'Cedar Ltd', partyType: 2 as const, creditCode: null, fieldDetailMap: { address: '1 Harbour Road' }, bankItemList: [{ name: 'Bank of Ningbo', account: '6222000011112222', accountName: 'Cedar Ltd' }] };
    const alongside = [field({ id: 'address', name: 'address', type: 'text', tag: 'address', subjectGroup: 'counterpart_org-7' }), field({ id: 'bank', name: 'bank', type: 'text', tag: 'bankName', subjectGroup: 'p' }), field({ id: 'other', name: 'other', type: 'text', tag: 'address', subjectGroup: 'counterpart_org-8' })];
    const services = fakeServices({ organisationId: 'org-7', searchParties: vi.fn(() => Promise.resolve({ list: [result], count: 1 })) });
    const view = renderField(outer, { services, value: [], alongside });
    await userEvent.type(screen.getByRole('textbox', { name: 'counterparty' }), 'C');
    await userEvent.click(await screen.findByText('Cedar Ltd', {}, { timeout: 2000 }));
    expect(view.values()).toMatchObject({ address: '1 Harbour Road', bank: 'Bank of Ningbo' });
    expect(view.values()).not.toHaveProperty('other');
  });

  it('adds a new blank party with id 0, not invalid while it is filled in; please enter + name once the field is left empty', async () => {
    const required = { ...outer, required: true };
    const view = renderField(required, { value: [] });
    await userEvent.click(screen.getByRole('textbox', { name: 'counterparty' }));
    await userEvent.click(screen.getByRole('button', { name: 'New party' }));
    expect(view.value()).toEqual([{ id: 0, name: '' }]);
    // Focus moved from the search to 'New party' and on to the new name: still inside the field.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name of the new party' }));
    expect(screen.queryByTestId('field-error-p')).toBeNull();
    await userEvent.click(document.body);
    expect(screen.getByTestId('field-error-p').textContent).toBe('Please enter counterparty');
  });

  it('takes a named new party on submit, and refuses it left blank', async () => {
    const view = renderField(outer, { value: [] });
    await userEvent.click(screen.getByRole('button', { name: 'New party' }));
    await expect(view.submit()).rejects.toThrow('Validation failed');
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of the new party' }), 'Draft Co');
    await expect(view.submit()).resolves.toEqual({ p: [{ id: 0, name: 'Draft Co' }] });
  });

  it('registers a party validator with the engine', () => {
    const view = renderField(outer, { value: [{ id: 0, name: '' }] });
    expect(view.issues().map((i) => i.message.text)).toEqual(['Please enter counterparty']);
  });

  it('shows the external party detail, and no data without an id', async () => {
    const services = fakeServices({}, {
      counterpartExternalDetail: () => acmeDetail,
    });
    renderField(outer, { services, value: [acme, { id: 0, name: 'Draft Co' }], mode: 'preview' });
    await userEvent.click(screen.getByRole('button', { name: 'Acme Ltd' }));
    expect(await screen.findByText('91310000')).toBeTruthy();
    expect(screen.getByText('Blacklisted')).toBeTruthy();
    expect(services.cachedRead).toHaveBeenCalledWith('counterpartExternalDetail', { params: { id: 'a1' }, query: { refresh: true } });
    // The server's answer: nothing says "as of".
    expect(screen.queryByTestId('party-detail-as-of')).toBeNull();
    cleanup();
    renderField(outer, { services, value: [{ id: 0, name: 'Draft Co' }], mode: 'preview' });
    await userEvent.click(screen.getByRole('button', { name: 'Draft Co' }));
    expect(screen.getByRole('status').textContent).toBe('No data');
  });

  it('shows the kept party detail offline as of when it was read', async () => {
    const services = fakeServices({
      cachedRead: vi.fn(() => Promise.resolve({ value: acmeDetail, asOf: '2026-11-20T08:00:00.000Z', offline: true })) as FormServices['cachedRead'],
    });
    renderField(outer, { services, value: [acme], mode: 'preview' });
    await userEvent.click(screen.getByRole('button', { name: 'Acme Ltd' }));
    expect(await screen.findByText('91310000')).toBeTruthy();
    expect(screen.getByTestId('party-detail-as-of').textContent).toMatch(/^Offline: as last read on .*2026/);
  });

  it('asks to save a new contract before scoring it, and to sync one the server does not know yet', async () => {
    renderField(outer, { value: [acme], contractId: null });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('Save the contract first');
    cleanup();
    const services = fakeServices({}, {
      scoreDetail: () => {
        throw { code: 'not_found', message: 'contract c1 does not exist' };
      },
    });
    renderField(outer, { services, value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    await waitFor(() => expect(screen.getByRole('dialog').textContent).toContain('has not reached the server yet'));
  });

  it('hides the detail link in an organisation-share environment', () => {
    renderField(outer, { services: fakeServices({ organizationShare: true }), value: [acme], mode: 'preview' });
    expect(screen.getByText('Acme Ltd')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Acme Ltd' })).toBeNull();
  });

  it('guards the score dialog with please select an external party first', async () => {
    renderField(outer, { value: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    expect(screen.getByRole('alert').textContent).toBe('Please select an external party first');
  });

  it('scores: loads the detail, checks each criterion, submits and says operation successful!', async () => {
    const detail = {
      contractId: 'c1', counterpartyId: 'a1', counterpartyName: 'Acme Ltd', comment: '', totalScore: null, maxTotalScore: 10,
      updateTime: null, version: 2,
      resultItems: [{ id: 'g1', name: 'delivery', children: [{ id: 'k1', name: 'on time', criterion: 'days late', maxScore: 10, actualScore: null }] }],
    };
    const submit = vi.fn(() => ({ message: 'Operation successful', detail }));
    const services = fakeServices({}, { scoreDetail: () => detail, scoreSubmit: submit });
    renderField(outer, { services, value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.style.width).toBe('800px');
    expect(screen.getByPlaceholderText('Please enter score explanation')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('This field cannot be empty')).toBeTruthy();
    const score = screen.getByRole('textbox', { name: 'on time' });
    await userEvent.type(score, '11');
    await userEvent.tab();
    expect(screen.getByText('The score cannot be greater than the full score')).toBeTruthy();
    await userEvent.clear(score);
    await userEvent.type(score, '8');
    await userEvent.type(screen.getByPlaceholderText('Please enter score explanation'), 'good');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(submit).toHaveBeenCalledWith({ params: { id: 'c1' }, body: { comment: 'good', version: 2, resultItems: [{ id: 'g1', children: [{ id: 'k1', actualScore: 8 }] }] } });
    expect(screen.getByRole('status').textContent).toBe('Operation successful');
  });

  it('scores offline: shows the kept detail as of its time and the queued scores as waiting to sync, and says a new score is saved on this device', async () => {
    const detail = {
      contractId: 'c1', counterpartyId: 'a1', counterpartyName: 'Acme Ltd', comment: 'late twice', totalScore: 6, maxTotalScore: 10,
      updateTime: null, version: 3,
      resultItems: [{ id: 'g1', name: 'delivery', children: [{ id: 'k1', name: 'on time', criterion: 'days late', maxScore: 10, actualScore: 6 }] }],
    };
    const saveScore = vi.fn(() => Promise.resolve({ queued: true }));
    const services = fakeServices({
      scoreDetail: vi.fn(() => Promise.resolve({ value: detail, asOf: '2026-11-20T08:00:00.000Z', offline: true, queued: true })),
      saveScore,
    });
    renderField(outer, { services, value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    expect((await screen.findByTestId('score-queued')).textContent).toBe('The scores below are yours, waiting on this device to sync: the server applies them once it can be reached.');
    expect(screen.getByTestId('score-as-of').textContent).toMatch(/^Offline: as last read on .*2026/);
    const score = screen.getByRole('textbox', { name: 'on time' }) as HTMLInputElement;
    expect(score.value).toBe('6');
    expect((screen.getByPlaceholderText('Please enter score explanation') as HTMLTextAreaElement).value).toBe('late twice');
    await userEvent.clear(score);
    await userEvent.type(score, '7');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Based on the version the queued scores lead to: applied after them, not refused as stale.
    expect(saveScore).toHaveBeenCalledWith({ contractId: 'c1', body: { comment: 'late twice', version: 3, resultItems: [{ id: 'g1', children: [{ id: 'k1', actualScore: 7 }] }] } });
    expect(screen.getByRole('status').textContent).toBe('Scores saved on this device: they are sent once the server can be reached.');
  });

  it('says a score cannot be read offline when this device never read it', async () => {
    renderField(outer, { services: fakeServices(), value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    await waitFor(() => expect(screen.getByRole('dialog').textContent).toContain('this device has not read it before'));
  });

  it('keeps a score as typed and says what is wrong with it: 1.5, 12.5 and -3 are never rewritten', async () => {
    const detail = {
      contractId: 'c1', counterpartyId: 'a1', counterpartyName: 'Acme Ltd', comment: '', totalScore: null, maxTotalScore: 15,
      updateTime: null, version: 2,
      resultItems: [{ id: 'g1', name: 'delivery', children: [{ id: 'k1', name: 'on time', criterion: 'days late', maxScore: 15, actualScore: null }] }],
    };
    const submit = vi.fn(() => ({ message: 'Operation successful', detail }));
    renderField(outer, { services: fakeServices({}, { scoreDetail: () => detail, scoreSubmit: submit }), value: [acme] });
    await userEvent.click(screen.getByRole('button', { name: 'Score' }));
    const score = await screen.findByRole('textbox', { name: 'on time' });
    for (const typed of ['1.5', '12.5', '-3']) {
      await userEvent.clear(score);
      await userEvent.type(score, typed);
      await userEvent.tab();
      expect((score as HTMLInputElement).value).toBe(typed);
      expect(screen.getByText('The score must be a whole number, zero or more')).toBeTruthy();
    }
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(submit).not.toHaveBeenCalled();
  });

  it('renders read-only in preview and locked when disabled', () => {
    renderField(outer, { value: [acme], mode: 'preview' });
    expect(screen.queryByRole('textbox')).toBeNull();
    cleanup();
    renderField(outer, { value: [acme], mode: 'disabled' });
    expect((screen.getByRole('textbox', { name: 'counterparty' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Score' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
