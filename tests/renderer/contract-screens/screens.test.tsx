// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import type { AppError } from '../../../src-shared/errors';
import type { Bridge, ChannelName, ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import type { CooperativeInfo, NumberNotice, ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { createAppStore } from '../../../src-renderer/app/store';
import { ContractDetailScreen } from '../../../src-renderer/features/contracts/ContractDetailScreen';
import { CreateContractScreen } from '../../../src-renderer/features/contracts/CreateContractScreen';
import { NumberNotices } from '../../../src-renderer/features/contracts/NumberNotices';
import { TemplateDetailScreen } from '../../../src-renderer/features/contracts/TemplateDetailScreen';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';

// The contract screens over a bridge that answers like the core: what each action sends, where
// it leads, and what the user sees when the form or the core refuses it.

initI18n('en');
afterEach(cleanup);

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
    archiveFileId: null,
    createTime: time,
    updateTime: time,
    version: 1,
    numberProvisional: true,
    pending: true,
    ...overrides,
  };
}

/** An answer of the core that is an error value. */
class Refusal {
  constructor(readonly error: AppError) {}
}

type Answers = { [C in ChannelName]?: (request: ChannelRequest<C>) => ChannelResponse<C> | Refusal };

/** A bridge answering the given channels; every call is kept, in order. */
function fakeBridge(answers: Answers) {
  const calls: { channel: ChannelName; request: unknown }[] = [];
  const defaults: Answers = {
    'app.info': () => ({ version: 'test', host: 'web', systemLocale: 'en-US', organizationShare: false }),
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
  const bridge: Bridge = {
    invoke: async (channel, request) => {
      calls.push({ channel, request });
      const answer = (answers[channel] ?? defaults[channel]) as ((r: unknown) => unknown) | undefined;
      if (!answer) return { ok: false, error: { code: 'unknown_channel', message: channel } };
      const data = answer(request);
      return data instanceof Refusal ? { ok: false, error: data.error } : ({ ok: true, data } as never);
    },
    on: () => () => undefined,
  };
  return { bridge, calls: (channel: ChannelName) => calls.filter((c) => c.channel === channel).map((c) => c.request) };
}

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
      { path: '/standingBook/detail', element: withNotices(<ContractDetailScreen />) },
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

describe('a contract’s detail', () => {
  it('edits a draft through contract.saveForm', async () => {
    const { bridge, calls } = fakeBridge({ 'contract.detail': () => contract(), 'contract.saveForm': () => ({ mutationId: 'm2' }) });
    renderScreens(bridge, `/standingBook/detail?contractId=${contractId}&mode=contract`);
    const user = userEvent.setup();
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

  it('says so when the contract is not in the replica', async () => {
    const { bridge } = fakeBridge({ 'contract.detail': () => new Refusal({ code: 'not_found', message: 'No data' }) });
    renderScreens(bridge, `/standingBook/detail?id=${contractId}`);
    expect((await screen.findByTestId('contract-screen-error')).textContent).toContain('No data');
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
    expect(await screen.findByRole('heading', { name: 'Cooperation information' })).toBeTruthy();
    expect(calls('contract.cooperation')).toEqual([{ id: contractId }]);
    expect(bodyRows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Approved37,037.01 CNYLi HuaEarlier supply 3HT-0003'),
      expect.stringContaining('Approved24,691.34 CNYLi HuaEarlier supply 2--'),
    ]);
    expect(screen.queryByRole('button', { name: 'View' })).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByTestId('contract-edit'));
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
