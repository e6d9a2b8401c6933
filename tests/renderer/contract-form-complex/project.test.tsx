// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormServices } from '../../../src-renderer/features/contract-form/types';
import { fakeServices, field, renderField } from './support';

const projectField = field({ id: 'pj', name: 'project', type: 'relationProject' });
const projects = [
  { id: 'p1', name: 'Harbour expansion' },
  { id: 'p2', name: 'Metro line 4' },
];
const online = () => fakeServices({}, { projectListAll: () => ({ list: projects }) });
const select = () => screen.getByLabelText('project') as HTMLSelectElement;

afterEach(cleanup);

describe('relationProject field', () => {
  it("chooses one of the server's projects as {id, name}, and clears it", async () => {
    const view = renderField(projectField, { services: online() });
    await screen.findByRole('option', { name: 'Metro line 4' });
    expect(view.services.cachedRead).toHaveBeenCalledWith('projectListAll', {});
    expect(screen.queryByTestId('project-as-of')).toBeNull();
    expect(screen.queryByText(/engine|unsupported/)).toBeNull();
    await userEvent.selectOptions(select(), 'p2');
    expect(view.value()).toEqual({ id: 'p2', name: 'Metro line 4' });
    await userEvent.selectOptions(select(), '');
    expect(view.value()).toBeUndefined();
  });

  it('keeps offering the kept project when the list no longer has it', async () => {
    renderField(projectField, { services: online(), value: { id: 'p9', name: 'Closed project' } });
    await screen.findByRole('option', { name: 'Harbour expansion' });
    expect(select().value).toBe('p9');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Please select project', 'Closed project', 'Harbour expansion', 'Metro line 4']);
  });

  it('offline: offers the kept projects as of when they were read', async () => {
    const services = fakeServices({ cachedRead: vi.fn(() => Promise.resolve({ value: { list: projects }, asOf: '2026-11-20T08:00:00.000Z', offline: true })) as FormServices['cachedRead'] });
    const view = renderField(projectField, { services });
    await screen.findByRole('option', { name: 'Metro line 4' });
    expect(screen.getByTestId('project-as-of').textContent).toMatch(/^Offline: as last read on .*2026/);
    await userEvent.selectOptions(select(), 'p1');
    expect(view.value()).toEqual({ id: 'p1', name: 'Harbour expansion' });
  });

  it('offline and never read: shows the kept project and says that choosing needs a connection', async () => {
    const view = renderField(projectField, { value: { id: 'p1', name: 'Harbour expansion' } });
    expect((await screen.findByRole('status')).textContent).toBe('This needs the contract server, which cannot be reached now. It works again once you are back online.');
    expect(select().value).toBe('p1');
    expect(select().disabled).toBe(true);
    expect(view.value()).toEqual({ id: 'p1', name: 'Harbour expansion' });
  });

  it('asks for a project when required', async () => {
    const view = renderField(field({ id: 'pj', name: 'project', type: 'relationProject', required: true }), { services: online() });
    await screen.findByRole('option', { name: 'Metro line 4' });
    await expect(view.submit()).rejects.toThrow('Validation failed');
    expect(view.issues().map((issue) => issue.field)).toEqual(['pj']);
    expect((await screen.findByTestId('field-error-pj')).textContent).toBe('Please enter project');
  });

  it('shows the name in preview and the locked choice when disabled, asking the server nothing', async () => {
    const services = online();
    renderField(projectField, { services, value: { id: 'p1', name: 'Harbour expansion' }, mode: 'preview' });
    expect(screen.getByTestId('preview-pj').textContent).toBe('Harbour expansion');
    cleanup();
    renderField(projectField, { services, value: { id: 'p1', name: 'Harbour expansion' }, mode: 'disabled' });
    expect(select().value).toBe('p1');
    expect(select().disabled).toBe(true);
    cleanup();
    renderField(projectField, { services, mode: 'preview' });
    expect(screen.getByTestId('preview-pj').textContent).toBe('--');
    expect(services.onlineCall).not.toHaveBeenCalled();
  });
});
