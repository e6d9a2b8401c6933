import { describe, expect, it } from 'vitest';
import type {
  Bridge,
  ChannelName,
  ChannelResponse,
  EventName,
  EventPayload,
  IpcResult,
  SessionInfo,
  SyncStatus,
} from '../../src-shared/ipc/channels';
import { api } from '../../src-renderer/api/api';
import { connectStore } from '../../src-renderer/api/connectStore';
import { createAppStore } from '../../src-renderer/app/store';
import type { ConnectionState } from '../../src-renderer/bridge/transport';
import { tabChanged } from '../../src-renderer/features/ledger/ledgerSlice';

const user = (id: string) => ({ id, username: id, displayName: id, role: 'staff' as const, departmentId: null, departmentName: null });
const signedIn = (id: string): SessionInfo => ({ signedIn: true, serverUrl: 'http://server', user: user(id) });
const signedOut: SessionInfo = { signedIn: false, serverUrl: 'http://server' };
const statistics = { total: 3, draft: 1, underApproval: 1, approvalRejected: 0, approved: 1, archived: 0 };

/** A core stand-in: answers from a table, records each call, and pushes events on demand. */
function fakeCore(answers: Partial<{ [C in ChannelName]: () => IpcResult<ChannelResponse<C>> }>) {
  const calls: ChannelName[] = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const connection = new Set<(state: ConnectionState) => void>();
  const bridge: Bridge = {
    invoke: async (channel) => {
      calls.push(channel);
      const answer = answers[channel];
      return (answer ? answer() : { ok: false, error: { code: 'unknown_channel', message: channel } }) as never;
    },
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => listeners.get(event)?.forEach((l) => l(payload));
  const transport = { bridge, onConnectionChange: (l: (state: ConnectionState) => void) => (connection.add(l), () => connection.delete(l)) };
  const setConnection = (state: ConnectionState) => connection.forEach((l) => l(state));
  return { bridge, transport, calls, emit, setConnection };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('store over the bridge', () => {
  it('maps endpoints to channels and bridge errors to {code, message} values', async () => {
    const core = fakeCore({ 'ledger.contractStatistics': () => ({ ok: true, data: statistics }) });
    const store = createAppStore(core.bridge);
    const stats = await store.dispatch(api.endpoints.contractStatistics.initiate());
    expect(stats.data).toEqual(statistics);
    const status = await store.dispatch(api.endpoints.syncStatus.initiate());
    expect(status.error).toEqual({ code: 'unknown_channel', message: 'sync.status' });
    expect(core.calls).toEqual(['ledger.contractStatistics', 'sync.status']);
  });

  it("refetches contract queries on 'data.changed' and takes sync status from 'sync.statusChanged'", async () => {
    const core = fakeCore({ 'ledger.contractStatistics': () => ({ ok: true, data: statistics }) });
    const store = createAppStore(core.bridge);
    connectStore(store, core.transport);
    const subscription = store.dispatch(api.endpoints.contractStatistics.initiate());
    await subscription;

    core.emit('data.changed', { entities: ['contract'] });
    await settle();
    expect(core.calls).toEqual(['ledger.contractStatistics', 'ledger.contractStatistics']);

    const pushed = { online: true, phase: 'pulling', lastSyncAt: null, pulled: 5, remaining: 10, firstSync: true, queued: 0, oldestQueuedAt: null, waiting: [], problems: [], error: null } satisfies SyncStatus;
    core.emit('sync.statusChanged', pushed);
    expect(api.endpoints.syncStatus.select()(store.getState()).data).toEqual(pushed);
    subscription.unsubscribe();
  });

  it("refetches a contract's cooperation information on 'data.changed' of contracts only", async () => {
    const core = fakeCore({ 'contract.cooperation': () => ({ ok: true, data: [] }) });
    const store = createAppStore(core.bridge);
    connectStore(store, core.transport);
    const subscription = store.dispatch(api.endpoints.contractCooperation.initiate('c1'));
    await subscription;
    core.emit('data.changed', { entities: ['numberNotice'] });
    await settle();
    expect(core.calls).toEqual(['contract.cooperation']);
    core.emit('data.changed', { entities: ['contract'] });
    await settle();
    expect(core.calls).toEqual(['contract.cooperation', 'contract.cooperation']);
    subscription.unsubscribe();
  });

  it('refetches what the screens show after the line to the core comes back', async () => {
    const core = fakeCore({ 'ledger.contractStatistics': () => ({ ok: true, data: statistics }) });
    const store = createAppStore(core.bridge);
    connectStore(store, core.transport);
    const subscription = store.dispatch(api.endpoints.contractStatistics.initiate());
    await subscription;
    core.setConnection('open');
    await settle();
    expect(core.calls).toHaveLength(1);

    core.setConnection('reconnecting');
    expect(store.getState().connection.state).toBe('reconnecting');
    core.setConnection('open');
    await settle();
    expect(core.calls).toHaveLength(2);
    subscription.unsubscribe();
  });

  it("drops the previous user's cached data and filters when the session changes hands", async () => {
    const core = fakeCore({
      'session.get': () => ({ ok: true, data: signedIn('alice') }),
      'ledger.contractStatistics': () => ({ ok: true, data: statistics }),
    });
    const store = createAppStore(core.bridge);
    connectStore(store, core.transport);
    await store.dispatch(api.endpoints.session.initiate());
    await store.dispatch(api.endpoints.contractStatistics.initiate());
    store.dispatch(tabChanged(3));

    // The same user again (e.g. a token refresh) keeps everything.
    core.emit('session.changed', signedIn('alice'));
    expect(api.endpoints.contractStatistics.select()(store.getState()).data).toEqual(statistics);

    core.emit('session.changed', signedOut);
    expect(api.endpoints.contractStatistics.select()(store.getState()).data).toBeUndefined();
    expect(api.endpoints.session.select()(store.getState()).data).toEqual(signedOut);
    expect(store.getState().ledger.status).toBeNull();
  });
});
