// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeServices, field, renderField } from './support';

const relatedField = field({ id: 'rc', name: 'related contracts', type: 'relatedContracts', options: [{ id: 1, name: 'supplement' }, { id: 2, name: 'framework' }] });
const services = () => fakeServices({}, { contractsForRelated: () => ({ list: [{ id: 'c1', name: 'Supply 2026' }, { id: 'c2', name: 'Framework 2025' }] }) });

afterEach(cleanup);

describe('related contracts', () => {
  it('builds a group from the candidates and asks for at least two contracts', async () => {
    const view = renderField(relatedField, { services: services(), value: [] });
    expect(view.services.onlineCall).toHaveBeenCalledWith('contractsForRelated', { query: { relationType: 3, type: 1 } });
    await userEvent.click(screen.getByRole('button', { name: 'Add a relation group' }));
    expect(screen.getByText('Related contracts must contain at least two items')).toBeTruthy();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Contract 1.1' }), 'Supply 2026');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Relationship 1.1' }), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Add a related contract' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Contract 1.2' }), 'Framework 2025');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Relationship 1.2' }), '2');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(view.value()).toEqual([{ relationType: 3, relatedContracts: [{ contractName: 'Supply 2026', relationshipID: 1 }, { contractName: 'Framework 2025', relationshipID: 2 }] }]);
  });

  it('flags a row without a contract or relationship', async () => {
    renderField(relatedField, { services: services(), value: [{ relationType: 3, relatedContracts: [{ contractName: 'Supply 2026', relationshipID: 1 }] }] });
    await userEvent.click(screen.getByRole('button', { name: 'Add a related contract' }));
    expect(screen.getByRole('alert').textContent).toBe('Each related contract needs a contract name and a relationship');
  });

  it('lists the groups in preview and locks them when disabled', () => {
    const value = [{ relationType: 3, relatedContracts: [{ contractName: 'A', relationshipID: 1 }, { contractName: 'B', relationshipID: 2 }] }];
    renderField(relatedField, { services: services(), value, mode: 'preview' });
    expect(screen.getByText('A (supplement)、B (framework)')).toBeTruthy();
    cleanup();
    renderField(relatedField, { services: services(), value, mode: 'disabled' });
    expect((screen.getByRole('combobox', { name: 'Contract 1.1' }) as HTMLSelectElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add a relation group' })).toBeNull();
  });
});
