// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearNotices } from '../../src-renderer/app/toaster';
import { createAppStore } from '../../src-renderer/app/store';
import { TemplateEditorScreen } from '../../src-renderer/features/templates/TemplateEditorScreen';
import { TemplatesScreen } from '../../src-renderer/features/templates/TemplatesScreen';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import type { TemplateDetail } from '../../src-shared/domain/contract-forms';
import type { SessionInfo } from '../../src-shared/ipc/channels';
import type { DraftingCatalogue } from '../../src-shared/ipc/drafting';
import { fakeBridge, Refusal, signedInStaff } from './support/fake-bridge';

// The templates screen and editor (issue 29) on a fake core: what each status and author allows
// and why not, the pending approvals leading to the approval page, the editor refusing a template
// the form engine could not draft from before anything is sent (in the user's language), the
// live preview drawn by the form engine, and an offline save refused at once.

initI18n('en');
afterEach(cleanup);
afterAll(clearNotices, 10_000);
beforeEach(() => i18n.changeLanguage('en'));

const admin: SessionInfo = {
  signedIn: true,
  serverUrl: 'http://127.0.0.1:8787',
  user: { id: 'u-admin', username: 'admin', displayName: 'Admin', role: 'admin', departmentId: 'd-legal', departmentName: 'Legal' },
};
const asOf = '2026-11-20T08:00:00.000Z';
const approvedId = '0190c0de-0000-7000-8000-0000000000a1';
const draftId = '0190c0de-0000-7000-8000-0000000000a2';
const pendingId = '0190c0de-0000-7000-8000-0000000000a3';
const typeId = '0190c0de-0000-7000-8000-0000000000c1';
const summary = (id: string, name: string, status: 1 | 2 | 3 | 4, createdBy: string) => ({
  id, name, templateNumber: `MB-${id.slice(-2)}`, contractTypeId: typeId, status, createdBy, updateTime: '2026-11-19T08:00:00.000Z', version: 1,
});
const list = [summary(approvedId, '采购合同标准模板', 4, 'u-admin'), summary(draftId, 'Bob’s lease', 1, 'u-bob'), summary(pendingId, 'NDA', 2, 'u-bob')];
const detail: TemplateDetail = {
  ...summary(draftId, 'Bob’s lease', 1, 'u-bob'),
  fields: [{ id: 'rent', name: 'Monthly rent', type: 'money' }],
  clauses: [],
  createTime: '2026-11-19T08:00:00.000Z',
};
const catalogue: DraftingCatalogue = { refreshedAt: asOf, templates: [], contractTypes: [{ id: typeId, name: '租赁合同', parentId: null, disabled: false }], numberingPreview: [], isNumberEditor: false };

function renderAt(path: string, session: SessionInfo, onlineCall: (request: { endpoint: string; body?: unknown }) => unknown = () => ({})) {
  const { bridge, calls } = fakeBridge({
    'session.get': () => session,
    'drafting.catalogue': () => catalogue,
    'cached.read': (request) => {
      const value =
        request.endpoint === 'templateList'
          ? { list: list.filter((row) => request.query?.status === undefined || row.status === Number(request.query.status)), count: 3 }
          : request.endpoint === 'contractTypeList'
            ? { list: [{ id: typeId, name: '租赁合同', parentId: null }] }
            : detail;
      return { value, asOf, offline: false };
    },
    'online.call': onlineCall as never,
  });
  const router = createMemoryRouter(
    [
      { path: '/templates', element: <TemplatesScreen /> },
      { path: '/templates/edit', element: <TemplateEditorScreen /> },
      { path: '/templateApproval/detail', element: <p data-testid="approval-page">approval</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={createAppStore(bridge)}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
  return { calls, router };
}

const rowOf = async (name: string) => (await screen.findAllByTestId('template-row')).find((row) => row.textContent!.includes(name))!;

describe('the templates screen', () => {
  it('offers each user what the status and the author allow, and says why not', async () => {
    renderAt('/templates', signedInStaff);
    const approved = await rowOf('采购合同标准模板');
    expect(approved.textContent).toContain('MB-a1');
    expect(approved.textContent).toContain('租赁合同');
    expect(within(approved).getByTestId('contract-status').getAttribute('data-status')).toBe('4');
    // Approved: viewed and copied, never edited or deleted; the delete button says why.
    expect(within(approved).queryByTestId('template-edit')).toBeNull();
    expect(within(approved).getByTestId('template-view')).toBeTruthy();
    expect(within(approved).getByTestId('template-delete').getAttribute('aria-description')).toBe(i18n.t('templates.why.approved'));
    const own = await rowOf('Bob’s lease');
    expect(within(own).getByTestId('template-edit').getAttribute('href')).toBe(`/templates/edit?id=${draftId}`);
    expect(within(own).getByTestId('template-delete').getAttribute('aria-description')).toBeNull();
    const pending = await rowOf('NDA');
    expect(within(pending).getByTestId('template-delete').getAttribute('aria-description')).toBe(i18n.t('templates.why.underApproval'));
  });

  it('lists the templates awaiting approval for an approver, each opening the approval page', async () => {
    await i18n.changeLanguage('zh-CN');
    const { calls, router } = renderAt('/templates', admin);
    fireEvent.click(await screen.findByText('待审批'));
    await waitFor(() => expect(screen.getAllByTestId('template-row')).toHaveLength(1));
    expect(calls('cached.read')).toContainEqual(expect.objectContaining({ endpoint: 'templateList', query: expect.objectContaining({ status: 2 }) }));
    fireEvent.click(within(screen.getByTestId('template-row')).getByTestId('template-review'));
    await screen.findByTestId('approval-page');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/templateApproval/detail?id=${pendingId}`);
  });

  it('copies a template as a new draft numbered by the rules', async () => {
    const { calls } = renderAt('/templates', admin, (request) => (request.endpoint === 'createTemplate' ? { ...detail, id: draftId, name: 'copy' } : {}));
    fireEvent.click(within(await rowOf('Bob’s lease')).getByTestId('template-copy'));
    await waitFor(() => expect(calls('online.call')).toHaveLength(1));
    expect(calls('online.call')[0]).toMatchObject({ endpoint: 'createTemplate', body: { name: 'Bob’s lease (copy)', fields: detail.fields, clauses: [] } });
    expect((calls('online.call')[0] as { body: object }).body).not.toHaveProperty('templateNumber');
  });
});

describe('the template editor', () => {
  it('refuses a template the form engine could not draft from, in the user’s language, sending nothing', async () => {
    await i18n.changeLanguage('zh-CN');
    const { calls } = renderAt('/templates/edit', admin);
    fireEvent.click(await screen.findByText('字段'));
    fireEvent.change(screen.getByTestId('template-new-field-type'), { target: { value: 'select' } });
    fireEvent.click(screen.getByTestId('template-add-field'));
    const field = screen.getByTestId('template-field');
    fireEvent.click(within(field).getByTestId('template-field-settings'));
    fireEvent.click(within(field).getByTestId('template-remove-option'));
    await waitFor(() => expect(within(field).queryByTestId('template-option')).toBeNull());
    fireEvent.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(within(field).getByRole('alert').textContent).toBe('请至少添加一个选项'));
    expect(screen.getByTestId('template-issues').textContent).toContain('2');
    expect(calls('online.call')).toEqual([]);
  });

  it('draws the form as drafters see it while the fields are written, and a clause with its statement', async () => {
    renderAt('/templates/edit', admin);
    fireEvent.click(await screen.findByText('Fields'));
    fireEvent.click(screen.getByTestId('template-add-field'));
    fireEvent.change(screen.getByTestId('template-field-name'), { target: { value: 'Supplier name' } });
    const preview = screen.getByTestId('template-preview');
    await waitFor(() => expect(within(preview).getByText('Supplier name')).toBeTruthy());
    fireEvent.click(screen.getByText('Clauses'));
    fireEvent.click(screen.getByTestId('template-add-clause'));
    fireEvent.change(screen.getByTestId('template-clause-name'), { target: { value: 'Payment' } });
    fireEvent.change(screen.getByTestId('template-statement-name'), { target: { value: 'Pay at once' } });
    await waitFor(() => expect(within(preview).getByText('Payment')).toBeTruthy());
    // The clause's field joined the form's fields, named as the clause.
    fireEvent.click(screen.getByText('Fields'));
    expect(screen.getAllByTestId('template-field-name').map((input) => (input as HTMLInputElement).value)).toEqual(['Supplier name', 'Payment']);
  });

  it('sends a valid template and shows a save refused offline at once', async () => {
    const { calls } = renderAt('/templates/edit', admin, () => new Refusal({ code: 'offline', message: 'offline' }));
    fireEvent.change(await screen.findByTestId('template-name'), { target: { value: 'Lease 2027' } });
    fireEvent.change(screen.getByTestId('template-number'), { target: { value: 'LS-1' } });
    fireEvent.change(screen.getByTestId('template-contract-type'), { target: { value: typeId } });
    fireEvent.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(screen.getByTestId('template-save-failure').textContent).toBe(i18n.t('errors.offline')));
    expect(calls('online.call')).toEqual([{ endpoint: 'createTemplate', params: {}, query: {}, body: { name: 'Lease 2027', contractTypeId: typeId, fields: [], clauses: [], document: null, templateNumber: 'LS-1' } }]);
  });

  it.each([
    ['en', 'This number duplicates the following template numbers'],
    ['zh-CN', '该编号与以下模板编号重复'],
  ])('checks a number for duplicates and lists the templates holding it, titled as templates', async (language, title) => {
    await i18n.changeLanguage(language);
    const onlineCall = (request: { endpoint: string }) =>
      request.endpoint === 'templateNumberCheckDuplicate' ? { list: [{ contractNumber: 'MB-a1', contractList: [{ id: approvedId, name: '采购合同标准模板' }] }] } : {};
    renderAt('/templates/edit', admin, onlineCall);
    fireEvent.change(await screen.findByTestId('template-number'), { target: { value: 'MB-a1' } });
    fireEvent.click(screen.getByTestId('template-number-check'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('采购合同标准模板')).toBeTruthy();
    // The dialog lists templates, not contracts (issue 31).
    expect(screen.getByRole('dialog', { name: title })).toBe(dialog);
    expect(screen.getByTestId('template-number')).toBeTruthy();
  });

  it('shows a template another author wrote read-only, saying why', async () => {
    renderAt(`/templates/edit?id=${draftId}`, { ...admin, user: { ...admin.user, id: 'u-carol', role: 'staff' } });
    expect((await screen.findByTestId('template-read-only')).textContent).toContain(i18n.t('templates.why.notYours'));
    expect(screen.queryByTestId('template-save')).toBeNull();
    expect((screen.getByTestId('template-name') as HTMLInputElement).disabled).toBe(true);
  });
});
