// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { clearNotices } from '../../../src-renderer/app/toaster';
import { fileUploadPath } from '../../../src-shared/api/files';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import type { Bridge, ChannelResponse, SessionInfo } from '../../../src-shared/ipc/channels';
import type { CooperativeInfo, NumberNotice, ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import type { SheetTask } from '../../../src-shared/ipc/fulfilment';
import { createAppStore } from '../../../src-renderer/app/store';
import { ContractHistory } from '../../../src-renderer/features/contracts/ContractHistory';
import { ContractPage } from '../../../src-renderer/features/contracts/ContractPage';
import { CreateContractScreen } from '../../../src-renderer/features/contracts/CreateContractScreen';
import { NumberNotices } from '../../../src-renderer/features/contracts/NumberNotices';
import { TemplateApprovalScreen } from '../../../src-renderer/features/contracts/TemplateApprovalScreen';
import { TemplateDetailScreen } from '../../../src-renderer/features/contracts/TemplateDetailScreen';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';
import { fakeBridge as fakeBridgeWith, Refusal, syncStatus, type Answers } from '../support/fake-bridge';

// The contract screens over a bridge that answers like the core: what each action sends, where
// it leads, and what the user sees when the form or the core refuses it.

initI18n('en');
afterEach(cleanup);
// The app's toasts outlive the screens: gone before the environment is.
afterAll(clearNotices, 10_000);

const templateId = '0190c0de-0000-7000-8000-000000000001';
const contractId = '0190c0de-0000-7000-8000-0000000000c1';
const time = '2026-11-21T10:00:00.000Z';

const template: TemplateDetail = {
  id: templateId,
  name: 'Supply template',
  templateNumber: 'T-1',
  contractTypeId: null,
  status: 4,
  fields: [
    { id: 'contractName', name: 'contract name', type: 'text', required: true },
    { id: 'price', name: 'price', type: 'number', required: true, alterEditStatus: 2 },
    { id: 'remark', name: 'remark', type: 'textarea' },
    { id: 'signedCopy', name: 'signed copy', type: 'upload' },
  ],
  clauses: [],
  createTime: time,
  updateTime: time,
  version: 1,
};

function contract(overrides: Partial<ReplicaContractDetail> = {}): ReplicaContractDetail {
  return {
    id: contractId,
    name: 'Steel supply',
    contractNumber: 'HT-0001',
    contractNumberAuto: true,
    status: 1,
    contractTypeId: null,
    templateId,
    formValues: { contractName: 'Steel supply', price: '10' },
    responsibleUserId: null,
    departmentId: null,
    counterpartName: 'Acme Steel',
    amount: { amount: 1_000_000, unit: 'CNY' },
    signDate: '2026-11-20',
    responsibleUserName: 'Li Hua',
    departmentName: 'Purchasing',
    templateName: 'Supply template',
    archiveFileId: null,
    createTime: time,
    updateTime: time,
    version: 1,
    numberProvisional: true,
    pending: true,
    refusal: null,
    archivePending: false,
    ...overrides,
  };
}

const screenDefaults: Answers = {
  'drafting.catalogue': () => ({
    refreshedAt: time,
    templates: [{ id: templateId, name: template.name, templateNumber: 'T-1', contractTypeId: null }],
    contractTypes: [],
    numberingPreview: [],
    isNumberEditor: false,
  }),
  'drafting.template': () => template,
  'contract.numberNotices': () => [],
  'contract.cooperation': () => [],
};

/** A bridge answering the given channels, with the contract screens' catalogue; every call is kept, in order. */
const fakeBridge = (answers: Answers) => fakeBridgeWith(answers, screenDefaults);

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderScreens(bridge: Bridge, path: string) {
  const store = createAppStore(bridge);
  const withNotices = (element: ReactNode) => (
    <>
      <NumberNotices />
      {element}
      <Where />
    </>
  );
  const router = createMemoryRouter(
    [
      { path: '/standingBook/create', element: withNotices(<CreateContractScreen />) },
      { path: '/template/detail', element: withNotices(<TemplateDetailScreen />) },
      { path: '/templateApproval/detail', element: withNotices(<TemplateApprovalScreen />) },
      { path: '/standingBook/detail', element: withNotices(<ContractPage />) },
      { path: '/myContract/detail', element: withNotices(<ContractPage />) },
      { path: '/contractApproval/detail', element: withNotices(<ContractPage approvalActions={(c) => <button data-testid="approval-slot">{c.name}</button>} />) },
    ],
    { initialEntries: [path] },
  );
  return render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </Provider>,
  );
}

const location = () => screen.getByTestId('location').textContent;
const toastText = async (text: string) => waitFor(() => expect(document.querySelector('.bp6-toast-container')?.textContent ?? '').toContain(text));

/** A task row of a performance sheet as the core shows it. */
const sheetTask = (id: string, name: string, state: 1 | 2 | 3 | 4 | 5, dueDate: string | null): SheetTask => ({
  id, planId: 'p1', performanceId: 'perf-1', name, type: 'payment', state, dueDate, rowIndex: 1, level: null, leaderUserId: null, values: {},
  receivableAmount: null, payableAmount: null, finishedAmount: null, completionValues: null, predecessors: [], relatable: true, pending: false, queuedNew: false, refusal: null,
});

describe('drafting a contract', () => {
  it('drafts from a chosen template, saves through contract.create and opens the new contract', async () => {
    const { bridge, calls } = fakeBridge({
      'contract.create': () => ({ id: contractId, mutationId: 'm1', contractNumber: 'HT-0001', numberProvisional: true }),
      'contract.detail': () => contract(),
    });
    renderScreens(bridge, '/standingBook/create?mode=contract');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('contract-template'), templateId);
    await waitFor(() => expect(location()).toBe('/template/detail'));
    await user.type(await screen.findByLabelText(/contract name/), 'Steel supply');
    await user.type(screen.getByLabelText(/price/), '10');
    await user.click(screen.getByTestId('contract-save'));
    await waitFor(() => expect(location()).toBe(`/standingBook/detail?id=${contractId}`));
    expect(calls('contract.create')).toEqual([
      { name: 'Steel supply', templateId, contractTypeId: null, contractNumber: null, formValues: { contractName: 'Steel supply', price: '10' } },
    ]);
    expect(await screen.findByTestId('contract-detail-name')).toHaveProperty('textContent', 'Steel supply');
    expect(screen.getByTestId('contract-number-provisional').textContent).toBe('Provisional number');
    expect(screen.getByTestId('contract-pending').textContent).toBe('Waiting to sync');
  });

  it('refuses an empty draft: validation failed, each field says why, nothing is sent', async () => {
    const { bridge, calls } = fakeBridge({});
    renderScreens(bridge, '/standingBook/create?mode=contract');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('contract-template'), templateId);
    await user.click(await screen.findByTestId('contract-save'));
    await toastText('Validation failed');
    expect(screen.getByTestId('field-error-contractName').textContent).toBe('Please enter contract name');
    expect(screen.getByTestId('field-error-price').textContent).toBe('Please enter price');
    expect(calls('contract.create')).toEqual([]);
  });

  it('asks for the name of a blank contract', async () => {
    const { bridge, calls } = fakeBridge({});
    renderScreens(bridge, '/standingBook/create?mode=contract');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('contract-template'), 'blank');
    await user.click(await screen.findByTestId('contract-save'));
    await toastText('Validation failed');
    expect(screen.getByTestId('contract-draft').textContent).toContain('Please enter the contract name');
    // Characters a file name cannot hold are stripped as typed (spec 5).
    await user.type(screen.getByTestId('contract-name'), 'a/b:c？');
    expect(screen.getByTestId('contract-name')).toHaveProperty('value', 'abc');
    expect(calls('contract.create')).toEqual([]);
  });

  it('shows the core’s {code, message} when saving fails', async () => {
    const { bridge } = fakeBridge({ 'contract.create': () => new Refusal({ code: 'forbidden', message: 'no' }) });
    renderScreens(bridge, '/standingBook/create?mode=contract');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByTestId('contract-template'), templateId);
    await user.type(await screen.findByLabelText(/contract name/), 'x');
    await user.type(screen.getByLabelText(/price/), '1');
    await user.click(screen.getByTestId('contract-save'));
    await toastText('You do not have permission to do this.');
    expect(location()).toBe('/template/detail');
  });
});

describe('the template approval page', () => {
  const underApproval: TemplateDetail = {
    ...template,
    status: 2,
    fields: [...template.fields.map((field) => (field.id === 'price' ? { ...field, bookmarkNames: ['bm_price'] } : field)), { id: 'payment', name: 'payment', type: 'clause' }],
    clauses: [{ labelID: 'payment', name: 'payment', isNullable: false, bookmarkName: 'bm_payment', statementList: [{ id: 1, name: 'at once', content: [[{ type: 'text', text: 'Paid at once.' }]], fieldList: [], labelItemList: [] }] }],
    document: { fileId: '0190c0de-0000-7000-8000-0000000000f1', name: 'supply.docx', size: 20_480, bookmarks: ['bm_price', 'bm_payment', 'bm_seal'] },
  };

  it("shows the template's document and what each bookmark prints, so the approver approves what gets printed", async () => {
    const { bridge, calls } = fakeBridge({
      'template.detail': () => underApproval,
      'contractDocument.template': () => new Refusal({ code: 'offline', message: 'the template document is not kept on this device', reason: { key: 'documentNotKept' } }),
    });
    renderScreens(bridge, `/templateApproval/detail?id=${templateId}`);
    const review = await screen.findByTestId('template-approval-document');
    expect(within(review).getByTestId('template-document-name').textContent).toContain('supply.docx · 20 KB');
    const rows = within(review).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['bm_priceField: price', 'bm_paymentClause: payment', 'bm_sealNothing']);
    expect(within(review).getByTestId('template-document-warnings').textContent).toContain('Bookmarks that map to nothing: bm_seal');
    // Read-only: nothing to upload or choose here.
    expect(within(review).queryAllByRole('combobox')).toEqual([]);
    expect(document.querySelector('#template-document-file')).toBeNull();
    // The document itself, as written, is asked of the core; why it cannot be shown is said.
    expect(calls('contractDocument.template')).toEqual([expect.objectContaining({ fileId: underApproval.document!.fileId })]);
    expect((await within(review).findByTestId('template-document-preview-failed')).textContent).toContain('The document could not be shown');
  });

  it('says so when the template has no document', async () => {
    renderScreens(fakeBridge({ 'template.detail': () => ({ ...underApproval, document: null }) }).bridge, `/templateApproval/detail?id=${templateId}`);
    expect((await screen.findByTestId('template-approval-no-document')).textContent).toBe('This template has no document: contracts drafted from it have nothing to print or sign.');
  });
});

describe('a drafting screen opened before the templates came', () => {
  const empty = { refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false };
  const fetched = () => screenDefaults['drafting.catalogue']!({}) as ChannelResponse<'drafting.catalogue'>;

  it('fetches them at once while the server is reachable, once, and offers them', async () => {
    let answer: ChannelResponse<'drafting.refresh'> | null = null;
    const { bridge, calls } = fakeBridge({
      'drafting.catalogue': () => empty,
      'drafting.refresh': () => {
        answer = fetched();
        return answer;
      },
    });
    renderScreens(bridge, '/standingBook/create?mode=contract');
    const chooser = await screen.findByTestId('contract-template');
    await waitFor(() => expect(within(chooser).getByRole('option', { name: 'Supply template (T-1)' })).toBeTruthy());
    expect(answer).not.toBeNull();
    expect(calls('drafting.refresh')).toHaveLength(1);
    expect(screen.queryByTestId('contract-catalogue-missing')).toBeNull();
    expect(screen.queryByTestId('contract-catalogue-fetching')).toBeNull();
  });

  it('offline, asks nothing and says how to get them', async () => {
    const { bridge, calls } = fakeBridgeWith({ 'drafting.catalogue': () => empty, 'sync.status': () => syncStatus({ online: false }) }, screenDefaults);
    renderScreens(bridge, '/standingBook/create?mode=contract');
    expect((await screen.findByTestId('contract-catalogue-missing')).textContent).toContain('The templates have not been downloaded yet');
    await waitFor(() => expect(calls('sync.status').length).toBeGreaterThan(0));
    expect(calls('drafting.refresh')).toEqual([]);
  });
});

describe('a contract’s detail', () => {
  it('edits a draft through contract.saveForm', async () => {
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => contract(), 'contract.saveForm': () => ({ mutationId: 'm2' }) });
    renderScreens(bridge, `/standingBook/detail?contractId=${contractId}&mode=contract`);
    const user = userEvent.setup();
    // The header shows the key terms the replica row holds.
    expect((await screen.findByTestId('contract-detail-counterparty')).textContent).toBe('Acme Steel');
    expect(screen.getByTestId('contract-detail-amount').textContent).toBe('10,000.00 CNY');
    await user.click(await screen.findByTestId('contract-edit'));
    await user.type(screen.getByLabelText(/remark/), 'by sea');
    await user.click(screen.getByTestId('contract-save'));
    await waitFor(() => expect(calls('contract.saveForm')).toEqual([
      { id: contractId, name: 'Steel supply', contractTypeId: null, formValues: { contractName: 'Steel supply', price: '10', remark: 'by sea' } },
    ]));
    await waitFor(() => expect(screen.getByTestId('contract-detail').getAttribute('data-mode')).toBe('view'));
  });

  it('alters an approved contract: only alterable fields open, the reason is required, only changes are sent', async () => {
    const approved = contract({ status: 4, numberProvisional: false, pending: false });
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => approved, 'contract.alter': () => ({ mutationId: 'm3' }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    const user = userEvent.setup();
    expect(screen.queryByTestId('contract-edit')).toBeNull();
    await user.click(await screen.findByTestId('contract-alter'));
    expect(screen.getByTestId('field-price').getAttribute('data-mode')).toBe('edit');
    expect(screen.getByTestId('field-contractName').getAttribute('data-mode')).toBe('disabled');
    expect(screen.getByTestId('field-remark').getAttribute('data-mode')).toBe('disabled');
    await user.clear(screen.getByLabelText(/price/));
    await user.type(screen.getByLabelText(/price/), '15');
    await user.click(screen.getByTestId('alteration-save'));
    await toastText('Validation failed');
    expect(screen.getByTestId('contract-detail').textContent).toContain('Please enter the reason');
    expect(calls('contract.alter')).toEqual([]);
    await user.type(screen.getByTestId('alteration-reason'), 'price agreed again');
    await user.click(screen.getByTestId('alteration-save'));
    await waitFor(() => expect(calls('contract.alter')).toEqual([{ id: contractId, formValues: { price: '15' }, reason: 'price agreed again' }]));
  });

  it('reopens a refused draft with the reason on the field it names until corrected, re-sends it, or discards it once confirmed', async () => {
    const refusal = {
      id: 'm-refused', kind: 'create' as const, name: 'Steel supply', contractNumber: null, formValues: { contractName: 'Steel supply', price: '10' },
      error: { code: 'validation_failed' as const, message: 'validation failed: formValues.price: too much', issues: [{ path: 'formValues.price', message: 'too much' }] },
    };
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => contract({ pending: false, refusal }), 'contract.saveForm': () => ({ mutationId: 'm-again' }), 'sync.dismiss': () => syncStatus() });
    renderScreens(bridge, `/myContract/detail?contractId=${contractId}`);
    const user = userEvent.setup();
    const callout = await screen.findByTestId('contract-refusal');
    expect(callout.textContent).toContain('The contract server refused this draft');
    expect(callout.textContent).not.toContain('too much');
    await user.click(await screen.findByTestId('contract-edit'));
    const price = () => screen.getByTestId('field-price').textContent;
    expect(price()).toContain('The contract server refused this value.');
    expect(screen.getByTestId('field-remark').textContent).not.toContain('refused');
    await user.clear(screen.getByLabelText(/price/));
    await user.type(screen.getByLabelText(/price/), '9');
    expect(price()).not.toContain('refused');
    await user.click(screen.getByTestId('contract-save'));
    await waitFor(() => expect(calls('contract.saveForm')).toEqual([{ id: contractId, name: 'Steel supply', contractTypeId: null, formValues: { contractName: 'Steel supply', price: '9' } }]));

    await waitFor(() => expect(screen.getByTestId('contract-detail').getAttribute('data-mode')).toBe('view'));
    await user.click(screen.getByTestId('contract-refusal-discard'));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Discard this draft?');
    expect(calls('sync.dismiss')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Discard the draft' }));
    await waitFor(() => expect(calls('sync.dismiss')).toEqual([{ id: 'm-refused' }]));
  });

  it('says so when the contract is not in the replica', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => new Refusal({ code: 'not_found', message: 'No data' }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    expect((await screen.findByTestId('contract-screen-error')).textContent).toContain('No data');
  });
});

describe('the contract page', () => {
  const term = (key: string) => screen.getByTestId(`contract-term-${key}`).textContent;
  const selectedTab = () => document.querySelector('[role=tab][aria-selected=true]')?.getAttribute('data-testid');

  it('shows the key terms of the contract in its header', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => contract() });
    renderScreens(bridge, `/myContract/detail?contractId=${contractId}`);
    expect(await screen.findByTestId('contract-detail-name')).toHaveProperty('textContent', 'Steel supply');
    expect(term('counterparty')).toBe('CounterpartyAcme Steel');
    expect(term('amount')).toBe('Amount10,000.00 CNY');
    expect(term('signDate')).toBe('Signing date20 Nov 2026');
    expect(term('responsible')).toBe('Responsible personLi Hua');
    expect(term('department')).toBe('DepartmentPurchasing');
    expect(term('template')).toBe('TemplateSupply template');
    expect(screen.getByTestId('contract-status').getAttribute('data-status')).toBe('1');
    await waitFor(() => expect(selectedTab()).toBe('contract-tab-BASIC_TAB'));
  });

  it("shows '--' for a term the contract does not have, and no scoring without a counterparty", async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => contract({ counterpartName: null, amount: null, signDate: null }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    await screen.findByTestId('contract-detail-name');
    expect(term('counterparty')).toBe('Counterparty--');
    expect(term('amount')).toBe('Amount--');
    expect(term('signDate')).toBe('Signing date--');
    expect(screen.queryByTestId('contract-score')).toBeNull();
    // Offered once the contract's form is known (its template read through the form's services).
    expect(await screen.findByTestId('contract-edit')).toBeTruthy();
  });

  it('shows a contract drafted without a template on the built-in blank form, labelled in the user’s language', async () => {
    const formValues = { signDate: '2026-11-20', amount: { amount: 1234500, unit: 'USD' } };
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => contract({ templateId: null, formValues }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    const form = await screen.findByTestId('contract-form');
    for (const label of ['Contract type', 'Contract number', 'Counterparty', 'Contract amount', 'Signing date', 'Contract period', 'Responsible person', 'Department', 'Attachments']) {
      expect(form.textContent).toContain(label);
    }
    expect(form.textContent).toContain('12,345.00');
    expect(screen.queryByTestId('contract-no-form')).toBeNull();
    expect(calls('drafting.template')).toEqual([]);
  });

  it('keeps every tab when the form cannot be had offline: the basic tab says why, the terms and other tabs stay', async () => {
    const notKept = new Refusal({ code: 'offline', message: 'not kept', reason: { key: 'templateNotKept' } });
    const { bridge } = fakeBridge({ 'contract.detail': () => contract(), 'drafting.template': () => notKept, 'contract.alterations': () => new Refusal({ code: 'offline', message: 'offline' }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    const unavailable = await screen.findByTestId('contract-form-unavailable');
    expect(unavailable.textContent).toContain('The form cannot be shown yet');
    expect(unavailable.textContent).toContain('is fetched once the contract server is reachable');
    expect(term('amount')).toBe('Amount10,000.00 CNY');
    // Without the form there is nothing to edit, but the page's other tabs are there.
    expect(screen.queryByTestId('contract-edit')).toBeNull();
    for (const tab of ['PERFORMANCE_TAB', 'ATTACHMENT_TAB', 'HISTORY_TAB']) expect(screen.getByTestId(`contract-tab-${tab}`)).toBeTruthy();
    expect(screen.queryByText('The template could not be read.')).toBeNull();
  });

  it("opens the form's scoring dialog for the contract's counterparty", async () => {
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => contract(), 'scoring.detail': () => new Refusal({ code: 'offline', message: 'offline' }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    await userEvent.setup().click(await screen.findByTestId('contract-score'));
    const dialog = await screen.findByRole('dialog', { name: 'Counterparty scoring' });
    await waitFor(() => expect(calls('scoring.detail')).toEqual([{ contractId }]));
    // Never read on this device, and the server away: the dialog says so.
    await waitFor(() => expect(dialog.textContent).toContain('this device has not read it before'));
  });

  it("shows 'archive pending' for a contract archived on this device until the server applies it, and its kept PDF instead of the archive step", async () => {
    const admin: SessionInfo = {
      signedIn: true,
      serverUrl: 'http://127.0.0.1:8787',
      user: { id: 'u-admin', username: 'admin', displayName: 'Admin', role: 'admin', departmentId: 'd-sales', departmentName: 'Sales' },
    };
    const pending = contract({ status: 4, numberProvisional: false, pending: true, archivePending: true });
    const { bridge } = fakeBridge({ 'session.get': () => admin, 'contract.detail': () => pending });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    expect((await screen.findByTestId('contract-archive-pending')).textContent).toBe('Archive pending');
    expect(screen.getByTestId('archive-view')).toBeTruthy();
    expect(screen.queryByTestId('archive-open')).toBeNull();
    cleanup();
    const applied = fakeBridge({ 'session.get': () => admin, 'contract.detail': () => ({ ...pending, pending: false, archivePending: false }) });
    renderScreens(applied.bridge, `/standingBook/detail?id=${contractId}`);
    expect(await screen.findByTestId('archive-open')).toBeTruthy();
    expect(screen.queryByTestId('contract-archive-pending')).toBeNull();
  });

  it('offers no edit, alteration or approval step the status does not allow', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => contract({ status: 2, pending: false }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    await screen.findByTestId('contract-detail-name');
    expect(screen.queryByTestId('contract-edit')).toBeNull();
    expect(screen.queryByTestId('contract-alter')).toBeNull();
    expect(screen.queryByTestId('approval-slot')).toBeNull();
    expect(screen.queryByTestId('contract-pending')).toBeNull();
    expect(screen.getByTestId('contract-actions').textContent).toBe('Score the counterparty');
  });

  it('opens the tab the query names, with the approval actions the approval route supplies', async () => {
    const { bridge, calls } = fakeBridge({
      'contract.detail': () => contract(),
      'fulfilment.contract': () => ({
        contractStatus: 4,
        inChange: false,
        alterationQueued: false,
        plans: [
          {
            id: 'p1',
            performanceId: 'perf-1',
            performanceName: 'Payments',
            performanceType: 'payment',
            columns: [
              { id: 'name', name: 'Content', type: 'text', isRequired: true, isState: false },
              { id: 'expirationTime', name: 'Date', type: 'date', isRequired: true, isState: false },
              { id: 'payableAmount', name: 'Amount', type: 'money', isRequired: false, isState: false },
              { id: 'taskState', name: 'State', type: 'select', isRequired: false, isState: true },
            ],
            conditionType: 1,
            schedule: null,
            version: 1,
            pendingRows: null,
            tasks: [
              { ...sheetTask('t1', 'First payment', 3, '2026-12-01'), payableAmount: { amount: 250_000, unit: 'CNY' } },
              { ...sheetTask('t2', 'Delivery', 4, null), rowIndex: 2 },
            ],
          },
        ],
        looseTasks: [],
      }),
    });
    renderScreens(bridge, `/contractApproval/detail?id=${contractId}&flowId=0&tab=PERFORMANCE_TAB&active=0`);
    const tasks = await screen.findAllByTestId('contract-task');
    expect(selectedTab()).toBe('contract-tab-PERFORMANCE_TAB');
    expect(calls('fulfilment.contract')).toEqual([{ contractId }]);
    expect(tasks.map((row) => row.textContent)).toEqual(['1First payment1 Dec 20262,500.00 CNYRelateOverdueFinishDelete', '2Delivery----CompletedViewRestore']);
    expect(screen.getByTestId('approval-slot').textContent).toBe('Steel supply');
    // Editing brings the form's tab forward, and the approval steps wait until the form is left.
    await userEvent.setup().click(await screen.findByTestId('contract-edit'));
    expect(selectedTab()).toBe('contract-tab-BASIC_TAB');
    expect(location()).toBe(`/contractApproval/detail?id=${contractId}&flowId=0&tab=BASIC_TAB&active=0`);
    expect(screen.queryByTestId('approval-slot')).toBeNull();
  });

  it('offers no finish, alone or in a batch, while an alteration of the contract waits to sync, and says why', async () => {
    const plan = {
      id: 'p1', performanceId: 'perf-1', performanceName: 'Payments', performanceType: 'payment', conditionType: 1, schedule: null, version: 1, pendingRows: null,
      columns: [{ id: 'name', name: 'Content', type: 'text' as const, isRequired: true, isState: false }],
      tasks: [sheetTask('t1', 'First payment', 2, '2026-12-01'), { ...sheetTask('t2', 'Delivery', 4, null), rowIndex: 2 }],
    };
    const performance = (alterationQueued: boolean): ChannelResponse<'fulfilment.contract'> => ({ contractStatus: 4, inChange: false, alterationQueued, plans: [plan], looseTasks: [] });
    const queued = fakeBridge({ 'contract.detail': () => contract(), 'fulfilment.contract': () => performance(true) });
    const { unmount } = renderScreens(queued.bridge, `/contractApproval/detail?id=${contractId}&flowId=0&tab=PERFORMANCE_TAB&active=0`);
    expect((await screen.findByTestId('contract-alteration-queued')).textContent).toBe('An alteration of this contract is waiting to be sent to the server: its tasks can be finished once it has been sent.');
    expect((screen.getByTestId('batch-finish') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('task-finish')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    unmount();
    const sent = fakeBridge({ 'contract.detail': () => contract(), 'fulfilment.contract': () => performance(false) });
    renderScreens(sent.bridge, `/contractApproval/detail?id=${contractId}&flowId=0&tab=PERFORMANCE_TAB&active=0`);
    expect(await screen.findByTestId('task-finish')).toBeTruthy();
    expect(screen.queryByTestId('contract-alteration-queued')).toBeNull();
  });

  it('shows a finished task\'s amount with its currency (issue 31)', async () => {
    const plan = {
      id: 'p1', performanceId: 'perf-1', performanceName: 'Payments', performanceType: 'payment', conditionType: 1, schedule: null, version: 1, pendingRows: null,
      columns: [{ id: 'name', name: 'Content', type: 'text' as const, isRequired: true, isState: false }],
      tasks: [{ ...sheetTask('t1', 'First payment', 4, '2026-12-01'), payableAmount: { amount: 250_000, unit: 'USD' } }],
    };
    const { bridge } = fakeBridge({
      'contract.detail': () => contract(),
      'fulfilment.contract': () => ({ contractStatus: 4, inChange: false, alterationQueued: false, plans: [plan], looseTasks: [] }),
      'fulfilment.finishForm': () => ({
        taskId: 't1', taskName: 'First payment', amount: { amount: 250_000, unit: 'USD' }, blockingPredecessors: [],
        fields: [{ id: 'finishAmount', name: 'Completion amount', type: 'money', required: true }],
        values: { finishAmount: { amount: 250_000, unit: 'USD' } },
      }),
    });
    renderScreens(bridge, `/contractApproval/detail?id=${contractId}&flowId=0&tab=PERFORMANCE_TAB&active=0`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'View' }));
    const dialog = await screen.findByTestId('finish-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('preview-finishAmount').textContent).toBe('2,500.00 USD'));
  });

  it('asks a batch finish for each task\'s own completion amount and sends each, and shows a finish the server refused on its row (issue 28)', async () => {
    const plan = {
      id: 'p1', performanceId: 'perf-1', performanceName: 'Payments', performanceType: 'payment', conditionType: 1, schedule: null, version: 1, pendingRows: null,
      columns: [{ id: 'name', name: 'Content', type: 'text' as const, isRequired: true, isState: false }],
      tasks: [
        { ...sheetTask('t1', 'First payment', 2, '2026-12-01'), payableAmount: { amount: 1_755_000, unit: 'CNY' } },
        { ...sheetTask('t2', 'Second payment', 2, '2026-12-02'), rowIndex: 2, payableAmount: { amount: 1_755_000, unit: 'CNY' } },
        {
          ...sheetTask('t3', 'Third payment', 3, '2026-11-02'),
          rowIndex: 3,
          refusal: { mutationId: 'm-refused', name: 'performance.finishTasks', state: 'rejected' as const, error: { code: 'conflict' as const, message: 'x', reason: { key: 'contractInChange', params: {} } } },
        },
      ],
    };
    const { bridge, calls } = fakeBridge({
      'contract.detail': () => contract(),
      'fulfilment.contract': () => ({ contractStatus: 4, inChange: false, alterationQueued: false, plans: [plan], looseTasks: [] }),
      'fulfilment.finishForm': () => ({
        taskId: 't1', taskName: 'First payment', values: null, amount: null, blockingPredecessors: [],
        fields: [{ id: 'finishAmount', name: 'completion amount', type: 'money', required: true }, { id: 'description', name: 'completion description', type: 'textarea', required: false }],
      }),
      'fulfilment.finishBatch': () => ({ mutationId: 'm1' }),
      'sync.dismiss': () => syncStatus(),
    });
    renderScreens(bridge, `/contractApproval/detail?id=${contractId}&flowId=0&tab=PERFORMANCE_TAB&active=0`);
    const refused = await screen.findByTestId('task-refused');
    expect(refused.textContent).toContain('The server refused this finish');
    expect(screen.getByTestId('task-refused-reason').textContent).toBe('The contract is being changed (its change is under approval): its tasks cannot be finished until the change is decided.');
    const user = userEvent.setup();
    for (const box of screen.getAllByRole('checkbox').slice(0, 2)) await user.click(box);
    await user.click(screen.getByTestId('batch-finish'));
    const dialog = await screen.findByTestId('finish-dialog');
    // One amount per task, each starting from the task's own; no amount typed once for all.
    await waitFor(() => expect(dialog.querySelector('#contract-form-input-finishAmount-t1')).toBeTruthy());
    expect(dialog.querySelector('#contract-form-input-finishAmount')).toBeNull();
    expect((dialog.querySelector('#contract-form-input-finishAmount-t1') as HTMLInputElement).value).toBe('17550.00');
    const second = dialog.querySelector('#contract-form-input-finishAmount-t2') as HTMLInputElement;
    await user.clear(second);
    await user.type(second, '17000');
    await user.click(within(dialog).getByTestId('finish-confirm'));
    await waitFor(() => expect(calls('fulfilment.finishBatch')).toHaveLength(1));
    expect(calls('fulfilment.finishBatch')[0]).toEqual({
      performanceId: 'perf-1', planIDList: ['t1', 't2'], configFields: {},
      finishAmounts: { t1: { amount: 1_755_000, unit: 'CNY' }, t2: { amount: 1_700_000, unit: 'CNY' } },
    });
    await toastText('Tasks finished on this device; they are sent when the server can be reached.');
    await user.click(screen.getByTestId('task-refused-dismiss'));
    await waitFor(() => expect(calls('sync.dismiss')).toEqual([{ id: 'm-refused' }]));
  });

  it('chooses the tab by its position when the query gives only active', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => contract() });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}&active=2`);
    await waitFor(() => expect(selectedTab()).toBe('contract-tab-ATTACHMENT_TAB'));
  });

  it("lists the upload fields' files under attachments and opens one through the core", async () => {
    const fileId = '0190c0de-0000-7000-8000-0000000000f1';
    const file = { id: 'f1', name: 'signed.pdf', file: `${fileUploadPath}/${fileId}` };
    const { bridge, calls } = fakeBridge({
      'app.info': () => ({ version: 'test', host: 'electron', systemLocale: 'en-US', organizationShare: false }),
      'contract.detail': () => contract({ formValues: { contractName: 'Steel supply', price: '10', signedCopy: file } }),
      'files.open': () => ({}),
    });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}&tab=ATTACHMENT_TAB`);
    const rows = await screen.findAllByTestId('contract-attachment');
    expect(rows.map((row) => row.textContent)).toEqual(['signed copysigned.pdfOpen']);
    await userEvent.setup().click(within(rows[0]!).getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(calls('files.open')).toEqual([{ id: fileId }]));
  });

  it('says so when the contract has no attachments or tasks', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => contract(), 'fulfilment.contract': () => ({ contractStatus: 4, inChange: false, alterationQueued: false, plans: [], looseTasks: [] }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}&tab=ATTACHMENT_TAB`);
    expect((await screen.findByTestId('contract-attachments-none')).textContent).toContain('This contract has no attachments.');
    await userEvent.setup().click(screen.getByTestId('contract-tab-PERFORMANCE_TAB'));
    expect((await screen.findByTestId('contract-tasks-none')).textContent).toContain('This contract has no performance plans yet.');
  });
});

describe('a contract’s cooperation information', () => {
  const history: CooperativeInfo[] = [3, 2, 1].map((i) => ({
    contractID: `other-${i}`,
    updateTime: `2026-11-0${i}T08:00:00.000Z`,
    state: i === 1 ? null : 4,
    amount: { amount: 1_234_567 * i, unit: 'CNY' },
    operatorList: ['Li Hua'],
    name: `Earlier supply ${i}`,
    contractNumber: i === 2 ? null : `HT-000${i}`,
  }));
  const bodyRows = () => within(screen.getByRole('region', { name: 'Cooperation information' })).getAllByRole('row').slice(1);

  it('shows the first 2 of the counterparty’s other contracts in view, every one with a view action when editing', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({ opener: null } as unknown as Window);
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => contract(), 'contract.cooperation': () => history });
    renderScreens(bridge, `/standingBook/detail?contractId=${contractId}&mode=contract`);
    const user = userEvent.setup();
    // The page's cooperation tab; choosing it names it in the query.
    await user.click(await screen.findByTestId('contract-tab-COOPERATION_TAB'));
    expect(location()).toBe(`/standingBook/detail?contractId=${contractId}&mode=contract&tab=COOPERATION_TAB&active=3`);
    expect(await screen.findByRole('heading', { name: 'Cooperation information' })).toBeTruthy();
    expect(calls('contract.cooperation')).toEqual([{ id: contractId }]);
    expect(bodyRows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Approved37,037.01 CNYLi HuaEarlier supply 3HT-0003'),
      expect.stringContaining('Approved24,691.34 CNYLi HuaEarlier supply 2--'),
    ]);
    expect(screen.queryByRole('button', { name: 'View' })).toBeNull();

    // Editing opens the form's tab; the cooperation tab then shows every row with its action.
    await user.click(await screen.findByTestId('contract-edit'));
    expect(location()).toContain('tab=BASIC_TAB');
    await user.click(screen.getByTestId('contract-tab-COOPERATION_TAB'));
    expect(bodyRows()).toHaveLength(3);
    expect(bodyRows()[2]!.textContent).toContain('--12,345.67 CNY');
    await user.click(screen.getAllByRole('button', { name: 'View' })[2]!);
    expect(open).toHaveBeenCalledWith('/myContract/detail?contractId=other-1', '_blank');
    open.mockRestore();
  });

  it('says why when the history cannot be read, and keeps the contract shown', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => contract(), 'contract.cooperation': () => new Refusal({ code: 'not_found', message: 'No data' }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    expect((await screen.findByTestId('cooperation-error')).textContent).toContain('The cooperation information could not be read from the local data.');
    expect(screen.getByTestId('contract-detail-name').textContent).toBe('Steel supply');
  });
});

describe('replaced numbers', () => {
  it('shows each replaced provisional number until dismissed', async () => {
    let notices: NumberNotice[] = [{ contractId, contractName: 'Steel supply', provisional: 'HT-0001', confirmed: 'HT-0007', at: time }];
    const { bridge, calls } = fakeBridge({
      'contract.detail': () => contract({ contractNumber: 'HT-0007', numberProvisional: false, pending: false }),
      'contract.numberNotices': () => notices,
      'contract.dismissNumberNotice': () => (notices = []),
    });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    const notice = await screen.findByTestId('number-notice');
    expect(notice.textContent).toContain('The number HT-0001 of “Steel supply” was already taken on the server: it is now HT-0007.');
    await userEvent.setup().click(within(notice).getByTestId('number-notice-dismiss'));
    await waitFor(() => expect(screen.queryByTestId('number-notice')).toBeNull());
    expect(calls('contract.dismissNumberNotice')).toEqual([{ contractId }]);
  });
});

describe('the contract history', () => {
  const termsTemplate: TemplateDetail = {
    ...template,
    fields: [
      { id: 'amount', name: 'contract amount', type: 'money', alterEditStatus: 2 },
      { id: 'period', name: 'term', type: 'daterange', alterEditStatus: 2 },
      { id: 'method', name: 'payment method', type: 'select', options: [{ id: '1', name: 'bank transfer' }, { id: '2', name: 'draft' }], alterEditStatus: 2 },
      { id: 'remark', name: 'remark', type: 'textarea', alterEditStatus: 2 },
    ],
  };
  const alteration = {
    id: 'a1', contractId, userId: 'u1', userName: 'Alice Wang', reason: 'price agreed again', createTime: time,
    changes: [
      { fieldId: 'amount', name: 'contract amount', before: { amount: 1_000_000, unit: 'CNY' }, after: { amount: 12_345_678, unit: 'USD' } },
      { fieldId: 'period', name: 'term', before: null, after: ['2026/01/01', '2026/12/31'] },
      { fieldId: 'method', name: 'payment method', before: '1', after: '2' },
    ],
  };

  function renderHistory(answer: ChannelResponse<'contract.alterations'>) {
    const { bridge, calls } = fakeBridge({ 'drafting.template': () => termsTemplate, 'contract.alterations': () => answer });
    render(
      <Provider store={createAppStore(bridge)}>
        <I18nextProvider i18n={i18n}>
          <ContractHistory contract={{ id: contractId, templateId }} />
        </I18nextProvider>
      </Provider>,
    );
    return calls;
  }

  it("lists the server's alterations with each change before and after, formatted by the field's type", async () => {
    const calls = renderHistory({ alterations: [alteration], approvalTrail: [], fetchedAt: time, offline: false, localChanges: [] });
    const table = await screen.findByTestId('contract-history-alterations');
    await waitFor(() => expect(table.textContent).toContain('contract amount: 10,000.00 CNY → 123,456.78 USD'));
    // Days as the English form shows them.
    expect(table.textContent).toContain('term: -- → 1 Jan 2026 ~ 31 Dec 2026');
    expect(table.textContent).toContain('payment method: bank transfer → draft');
    expect(table.textContent).toContain('Alice Wang');
    expect(table.textContent).toContain('price agreed again');
    expect(screen.queryByTestId('contract-history-offline')).toBeNull();
    expect(calls('contract.alterations')).toEqual([{ id: contractId }]);
  });

  it('says offline that the list is as of its fetch time, and shows the edits waiting on this device', async () => {
    renderHistory({
      alterations: [alteration],
      approvalTrail: [],
      fetchedAt: time,
      offline: true,
      localChanges: [{ id: 'm1', name: 'contract.alter', state: 'pending', createdAt: time, reason: 'typed offline', step: null, changes: { remark: 'on the plane' }, error: null }],
    });
    expect((await screen.findByTestId('contract-history-offline')).textContent).toMatch(/^Offline: the alterations as the server listed them on .*2026/);
    const device = screen.getByTestId('contract-history-device');
    expect(device.textContent).toContain('Altered');
    expect(device.textContent).toContain('Waiting to sync');
    expect(device.textContent).toContain('remark: on the plane');
  });

  it('says when nothing was ever fetched and there are no alterations', async () => {
    renderHistory({ alterations: [], approvalTrail: [], fetchedAt: null, offline: true, localChanges: [] });
    expect((await screen.findByTestId('contract-history-offline')).textContent).toBe('Offline: the alterations have not been fetched from the server yet.');
    expect(screen.getByText('No alterations yet.')).toBeTruthy();
    expect(screen.getByText('No approval steps yet.')).toBeTruthy();
  });

  it('shows every approval step with who, the comment and when, newest first; a step taken offline with the time it reached the server; a queued step with its comment', async () => {
    const submitted = { action: 'submit', fromStatus: 1, toStatus: 2, userId: 'u-2', userName: 'Li Hua', comment: 'drafted on the train', takenAt: '2026-11-20T08:00:00.000Z', appliedAt: '2026-11-20T09:30:00.000Z' } as const;
    const approved = { action: 'approve', fromStatus: 2, toStatus: 4, userId: 'u-1', userName: 'Alice Wang', comment: 'terms fine', takenAt: '2026-11-21T10:00:00.000Z', appliedAt: '2026-11-21T10:00:00.000Z' } as const;
    renderHistory({
      alterations: [],
      approvalTrail: [submitted, approved],
      fetchedAt: time,
      offline: false,
      localChanges: [{ id: 'm2', name: 'contract.approvalStep', state: 'pending', createdAt: time, reason: null, step: { action: 'reject', comment: 'wrong amount' }, changes: {}, error: null }],
    });
    const rows = within(await screen.findByTestId('contract-history-approvals')).getAllByTestId('approval-trail-entry');
    expect(rows.map((row) => row.dataset.action)).toEqual(['approve', 'submit']);
    expect(rows[0]!.textContent).toContain('Alice Wang');
    expect(rows[0]!.textContent).toContain('Approved');
    expect(rows[0]!.textContent).toContain('terms fine');
    expect(rows[0]!.textContent).not.toContain('Reached the server');
    expect(rows[1]!.textContent).toContain('Submitted for approval');
    expect(rows[1]!.textContent).toContain('drafted on the train');
    expect(rows[1]!.textContent).toMatch(/Reached the server .*2026/);
    expect(screen.getByTestId('contract-history-device').textContent).toContain('Rejected: wrong amount');
  });
});
