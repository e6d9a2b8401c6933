// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServices, field, renderField } from './support';

const relatedField = field({ id: 'rc', name: 'related contracts', type: 'relatedContracts', options: [{ id: 1, name: 'supplement' }, { id: 2, name: 'framework' }] });
const plainField = field({ id: 'rc', name: 'related contracts', type: 'relatedContracts' });
const candidates = [
  { id: 'c1', name: 'Supply 2026', contractNumber: 'PA-2026-0001' },
  { id: 'c2', name: 'Framework 2025', contractNumber: null },
];
/** Candidates matching what is typed: the server's, or offline this device's as of `asOf`. */
const services = (offline = false, asOf: string | null = null) =>
  fakeServices({ relatedCandidates: vi.fn((q: string) => Promise.resolve({ list: candidates.filter((c) => c.name.toLowerCase().includes(q.toLowerCase()) || c.contractNumber?.includes(q)), offline, asOf })) });

afterEach(cleanup);

async function pick(label: string, typed: string, name: string) {
  const input = screen.getByRole('textbox', { name: label });
  await userEvent.clear(input);
  await userEvent.type(input, typed);
  await userEvent.click(await screen.findByText(name));
}

describe('related contracts', () => {
  it('offers the built-in relationships when the field lists none (never only "--")', () => {
    renderField(plainField, { services: services(), value: [{ relationType: 3, relatedContracts: [{ contractName: '', relationshipID: 0 }] }] });
    const options = within(screen.getByRole('combobox', { name: 'Relationship 1.1' })).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual([
      'Choose the relationship',
      'Main contract',
      'Supplementary agreement',
      'Amendment agreement',
      'Renewal contract',
      'Termination agreement',
      'Order under a framework agreement',
    ]);
  });

  it('searches the candidates by what is typed, and says so when they are this device’s', async () => {
    const offline = services(true);
    renderField(relatedField, { services: offline, value: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Add a relation group' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Contract 1.1' }), 'PA-2026');
    await waitFor(() => expect(offline.relatedCandidates).toHaveBeenLastCalledWith('PA-2026'));
    const menu = await screen.findByRole('menu', { name: 'Matching contracts' });
    expect(within(menu).getByText('Offline: contracts on this device')).toBeTruthy();
    expect(within(menu).getByText('Supply 2026')).toBeTruthy();
    expect(within(menu).queryByText('Framework 2025')).toBeNull();
  });

  it('says as of when this device last synced its contracts', async () => {
    renderField(relatedField, { services: services(true, '2026-11-20T08:00:00.000Z'), value: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Add a relation group' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Contract 1.1' }), 'Supply');
    const menu = await screen.findByRole('menu', { name: 'Matching contracts' });
    expect(within(menu).getByText(/^Offline: contracts on this device as of .*2026/)).toBeTruthy();
  });

  it('builds a group of two from the searched candidates; the rule speaks only once the field is left', async () => {
    const view = renderField(relatedField, { services: services(), value: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Add a relation group' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await pick('Contract 1.1', 'supply', 'Supply 2026');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Relationship 1.1' }), '1');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(document.body);
    expect(screen.getByRole('alert').textContent).toBe('Each related contract needs a contract name and a relationship');
    await pick('Contract 1.2', 'frame', 'Framework 2025');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Relationship 1.2' }), '2');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(view.value()).toEqual([{ relationType: 3, relatedContracts: [{ contractName: 'Supply 2026', relationshipID: 1 }, { contractName: 'Framework 2025', relationshipID: 2 }] }]);
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete' })[1]!);
    await userEvent.click(document.body);
    expect(screen.getByRole('alert').textContent).toBe('Related contracts must contain at least two items');
  });

  it('shows the rule after a submit without the field being touched', async () => {
    const view = renderField(relatedField, { services: services(), value: [{ relationType: 3, relatedContracts: [{ contractName: 'Supply 2026', relationshipID: 1 }] }] });
    expect(screen.queryByRole('alert')).toBeNull();
    await expect(view.submit()).rejects.toThrow('Validation failed');
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Related contracts must contain at least two items'));
  });

  it('lists the groups in preview with their relationships, and locks them when disabled', () => {
    const value = [{ relationType: 3, relatedContracts: [{ contractName: 'A', relationshipID: 1 }, { contractName: 'B', relationshipID: 2 }] }];
    renderField(relatedField, { services: services(), value, mode: 'preview' });
    expect(screen.getByText('A (supplement), B (framework)')).toBeTruthy();
    cleanup();
    renderField(plainField, { services: services(), value, mode: 'preview' });
    expect(screen.getByText('A (Main contract), B (Supplementary agreement)')).toBeTruthy();
    cleanup();
    renderField(relatedField, { services: services(), value, mode: 'disabled' });
    expect((screen.getByRole('textbox', { name: 'Contract 1.1' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add a relation group' })).toBeNull();
  });
});
