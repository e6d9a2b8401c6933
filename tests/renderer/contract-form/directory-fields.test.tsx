// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Directory } from '../../../src-shared/ipc/directory';
import { fakeServices, field, renderForm } from './support';

// People and department fields choose from the organisation's directory (the core's, kept for
// offline use): searched by name or department, one entry or several, names in preview.

afterEach(cleanup);

const directory: Directory = {
  users: [
    { id: 'u1', name: 'Li Lei', department: { id: 'd2', name: 'Purchasing' } },
    { id: 'u2', name: 'Han Meimei', department: { id: 'd3', name: 'Sales' } },
    { id: 'u3', name: 'Wang Wei', department: null },
  ],
  departments: [
    { id: 'd1', name: 'Head office', parent: null },
    { id: 'd2', name: 'Purchasing', parent: 'd1' },
    { id: 'd3', name: 'Sales', parent: 'd1' },
  ],
  fetchedAt: '2026-11-20T08:30:00.000Z',
  offline: false,
};

const people = field({ id: 'p', name: 'Handled by', type: 'people' });
const departments = field({ id: 'd', name: 'Department', type: 'department', multiple: true });
const choices = (name: string) => screen.getByRole('menu', { name: `Choices for ${name}` });

describe('people and department fields', () => {
  it.each<[string, unknown, string]>([
    ['a list of kept people', [{ id: 'u1', name: 'Li Lei' }, { name: 'Han Meimei' }], 'Li Lei, Han Meimei'],
    ['a bare kept name', 'Legal', 'Legal'],
  ])('show %s as names in preview, without reading the directory', (_, value, text) => {
    const services = fakeServices({ directory: vi.fn(() => Promise.resolve(directory)) });
    renderForm({ fields: [people], initialValues: { p: value }, mode: 'preview', services });
    expect(screen.getByTestId('preview-p').textContent).toBe(text);
    expect(services.directory).not.toHaveBeenCalled();
  });

  it('people: searches by name or department and keeps the one chosen, by id and name', async () => {
    const form = renderForm({ fields: [people], services: fakeServices({ directory: () => Promise.resolve(directory) }) });
    const search = screen.getByRole('textbox', { name: 'Handled by' });
    expect(search.getAttribute('placeholder')).toBe('Please select Handled by');
    await userEvent.click(search);
    await waitFor(() => expect(within(choices('Handled by')).getAllByRole('menuitem')).toHaveLength(3));
    await userEvent.type(search, 'sales');
    expect(within(choices('Handled by')).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Han MeimeiSales']);
    await userEvent.click(screen.getByRole('menuitem', { name: /Han Meimei/ }));
    expect(form.lastValues()).toEqual({ p: { id: 'u2', name: 'Han Meimei' } });
    // A single field replaces its entry.
    await userEvent.type(search, 'li');
    await userEvent.click(screen.getByRole('menuitem', { name: /Li Lei/ }));
    expect(form.lastValues()).toEqual({ p: { id: 'u1', name: 'Li Lei' } });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Li Lei' }));
    expect(form.lastValues()).toEqual({ p: undefined });
  });

  it('department with multiple: takes several, each shown with its parent, and drops one', async () => {
    const form = renderForm({ fields: [departments], services: fakeServices({ directory: () => Promise.resolve(directory) }) });
    await userEvent.click(screen.getByRole('textbox', { name: 'Department' }));
    await waitFor(() => expect(screen.getByRole('menuitem', { name: /Purchasing/ }).textContent).toBe('PurchasingHead office'));
    await userEvent.click(screen.getByRole('menuitem', { name: /Purchasing/ }));
    await userEvent.click(screen.getByRole('menuitem', { name: /Sales/ }));
    expect(form.lastValues()).toEqual({ d: [{ id: 'd2', name: 'Purchasing' }, { id: 'd3', name: 'Sales' }] });
    // Chosen ones are not offered again.
    expect(within(choices('Department')).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Head office']);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Purchasing' }));
    expect(form.lastValues()).toEqual({ d: [{ id: 'd3', name: 'Sales' }] });
  });

  it('says the directory is as of its fetch while offline', async () => {
    renderForm({ fields: [people], services: fakeServices({ directory: () => Promise.resolve({ ...directory, offline: true }) }) });
    expect((await screen.findByTestId('directory-as-of-p')).textContent).toMatch(/^Offline: the directory as of .*2026/);
  });

  it('says why nothing can be chosen when no directory was ever fetched, keeping the value', async () => {
    renderForm({
      fields: [people],
      initialValues: { p: { id: 'u1', name: 'Li Lei' } },
      services: fakeServices({ directory: () => Promise.reject({ code: 'offline', message: 'offline' }) }),
    });
    expect((await screen.findByRole('status')).textContent).toContain('cannot be reached');
    expect(screen.getByTestId('directory-p').textContent).toContain('Li Lei');
  });

  it('is locked when disabled and reads no directory', () => {
    const services = fakeServices({ directory: vi.fn(() => Promise.resolve(directory)) });
    renderForm({ fields: [people], initialValues: { p: { id: 'u1', name: 'Li Lei' } }, mode: 'disabled', services });
    expect((screen.getByRole('textbox', { name: 'Handled by' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Remove Li Lei' })).toBeNull();
    expect(services.directory).not.toHaveBeenCalled();
  });

  it('a required one left empty fails on submit', async () => {
    const form = renderForm({ fields: [{ ...people, required: true }], services: fakeServices({ directory: () => Promise.resolve(directory) }) });
    await expect(form.ref.current!.submit()).rejects.toThrow('Validation failed');
    expect((await screen.findByTestId('field-error-p')).textContent).toMatch(/Handled by/);
  });
});
