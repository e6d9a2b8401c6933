// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServices, field, renderField } from './support';

const agentField = field({ id: 'ag', name: 'agent', type: 'agentInformation' });
const lawyers = [
  { id: 'l1', name: 'Li Lei', lawFirmID: 'f1' },
  { id: 'l2', name: 'Han Mei', lawFirmID: 'f2' },
];
const services = () =>
  fakeServices({}, {
    lawFirmList: () => ({ list: [{ id: 'f1', name: 'King & Wood' }, { id: 'f2', name: 'Fangda' }], count: 2 }),
    lawyersByLawFirms: (request) => ({ list: lawyers.filter((l) => String(request.query?.lawFirmIDs).split(',').includes(l.lawFirmID)) }),
  });

afterEach(cleanup);

describe('agent information', () => {
  it('lists law firms from one page of 100, then the lawyers of the chosen firms', async () => {
    const view = renderField(agentField, { services: services() });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'King & Wood' }));
    expect(view.services.cachedRead).toHaveBeenCalledWith('lawFirmList', { query: { pageSize: 100, pageNum: 1 } });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Li Lei' }));
    expect(view.services.cachedRead).toHaveBeenCalledWith('lawyersByLawFirms', { query: { lawFirmIDs: 'f1' } });
    expect(screen.queryByRole('checkbox', { name: 'Han Mei' })).toBeNull();
    expect(view.value()).toEqual({ lawFirmIDList: ['f1'], lawyerIDList: ['l1'] });
  });

  it("drops the lawyers of a firm no longer chosen", async () => {
    const view = renderField(agentField, { services: services(), value: { lawFirmIDList: ['f1', 'f2'], lawyerIDList: ['l1', 'l2'] } });
    await screen.findByRole('checkbox', { name: 'Han Mei' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Fangda' }));
    expect(view.value()).toEqual({ lawFirmIDList: ['f1'], lawyerIDList: ['l1'] });
  });

  it('offline, lists the law firms as last read, with that time', async () => {
    const kept = services();
    const cachedRead = kept.cachedRead;
    kept.cachedRead = (endpoint, request) => cachedRead(endpoint, request).then((answer) => ({ ...answer, offline: true }));
    renderField(agentField, { services: kept });
    expect(await screen.findByRole('checkbox', { name: 'King & Wood' })).toBeTruthy();
    expect(screen.getByTestId('agent-as-of').textContent).toMatch(/^Offline: as last read on .*2026/);
  });

  it('says why when the law firms cannot be loaded offline', async () => {
    renderField(agentField, {});
    expect((await screen.findByRole('status')).textContent).toContain('cannot be reached');
  });

  it('shows names in preview and locks the choices when disabled', async () => {
    const value = { lawFirmIDList: ['f2'], lawyerIDList: ['l2'] };
    renderField(agentField, { services: services(), value, mode: 'preview' });
    expect(await screen.findByText('Fangda')).toBeTruthy();
    expect(await screen.findByText('Han Mei')).toBeTruthy();
    cleanup();
    renderField(agentField, { services: services(), value, mode: 'disabled' });
    expect(((await screen.findByRole('checkbox', { name: 'Fangda' })) as HTMLInputElement).disabled).toBe(true);
  });

  it('offers a disabled law firm or lawyer (state 2) only where it is chosen already, and names it in preview', async () => {
    const withDisabled = () =>
      fakeServices({}, {
        lawFirmList: () => ({ list: [{ id: 'f1', name: 'King & Wood', state: 1 }, { id: 'f3', name: 'Closed LLP', state: 2 }], count: 2 }),
        lawyersByLawFirms: () => ({ list: [{ id: 'l1', name: 'Li Lei', lawFirmID: 'f1', state: 1 }, { id: 'l3', name: 'Retired Wu', lawFirmID: 'f1', state: 2 }] }),
      });
    renderField(agentField, { services: withDisabled() });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'King & Wood' }));
    expect(await screen.findByRole('checkbox', { name: 'Li Lei' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Closed LLP' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Retired Wu' })).toBeNull();
    cleanup();
    const chosen = { lawFirmIDList: ['f1', 'f3'], lawyerIDList: ['l3'] };
    renderField(agentField, { services: withDisabled(), value: chosen });
    expect(((await screen.findByRole('checkbox', { name: 'Closed LLP' })) as HTMLInputElement).checked).toBe(true);
    expect(((await screen.findByRole('checkbox', { name: 'Retired Wu' })) as HTMLInputElement).checked).toBe(true);
    cleanup();
    renderField(agentField, { services: withDisabled(), value: chosen, mode: 'preview' });
    expect(await screen.findByText('King & Wood、Closed LLP')).toBeTruthy();
    expect(await screen.findByText('Retired Wu')).toBeTruthy();
  });
});
