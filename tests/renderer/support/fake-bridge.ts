import type { AppError } from '../../../src-shared/errors';
import type { Bridge, ChannelName, ChannelRequest, ChannelResponse, SessionInfo, SyncStatus } from '../../../src-shared/ipc/channels';

// A bridge that answers like the core for the channels a test names, and keeps every call.

/** An answer of the core that is an error value. */
export class Refusal {
  constructor(readonly error: AppError) {}
}

export type Answers = { [C in ChannelName]?: (request: ChannelRequest<C>) => ChannelResponse<C> | Refusal };

export const signedInStaff: SessionInfo = {
  signedIn: true,
  serverUrl: 'http://127.0.0.1:8787',
  user: { id: 'u-bob', username: 'bob', displayName: 'Bob', role: 'staff', departmentId: 'd-sales', departmentName: 'Sales' },
};

export function syncStatus(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return { online: true, phase: 'idle', lastSyncAt: null, pulled: 0, remaining: null, firstSync: false, queued: 0, oldestQueuedAt: null, waiting: [], problems: [], error: null, ...overrides };
}

/** A bridge answering the given channels (then a suite's own defaults, then these); every call is kept, in order. */
export function fakeBridge(answers: Answers, suiteDefaults: Answers = {}) {
  const calls: { channel: ChannelName; request: unknown }[] = [];
  const defaults: Answers = {
    'app.info': () => ({ version: 'test', host: 'web', systemLocale: 'en-US', organizationShare: false }),
    'app.pageLanguage': () => ({}),
    'session.get': () => signedInStaff,
    'sync.status': () => syncStatus(),
    ...suiteDefaults,
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
