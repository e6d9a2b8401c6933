import { describe, expect, it, vi } from 'vitest';
import { createDispatcher as dispatcherOf, type ChannelHandlers } from '../../src-main/core/ipc/dispatch';
import type { Logger } from '../../src-main/core/ports';
import { AppFailure } from '../../src-shared/errors';

function handlers(overrides: Partial<ChannelHandlers> = {}): ChannelHandlers {
  const fail = () => {
    throw new Error('not under test');
  };
  return {
    'app.info': () => ({ version: '1', host: 'web', systemLocale: 'en-US', organizationShare: false }),
    'app.pageLanguage': fail,
    'settings.get': fail,
    'settings.update': fail,
    'session.get': () => ({ signedIn: false, serverUrl: null }),
    'session.signIn': fail,
    'session.signOut': fail,
    'session.unlock': fail,
    'ledger.contractStatistics': fail,
    'ledger.contractPage': fail,
    'sync.status': fail,
    'sync.now': fail,
    'contract.update': fail,
    'sync.dismiss': fail,
    'sync.keepTheirs': fail,
    'sync.applyMineAgain': fail,
    'drafting.catalogue': fail,
    'drafting.refresh': fail,
    'drafting.template': fail,
    'drafting.searchParties': fail,
    'drafting.relatedCandidates': fail,
    'drafting.checkDuplicate': fail,
    'contract.detail': fail,
    'contract.cooperation': fail,
    'contract.create': fail,
    'contract.saveForm': fail,
    'contract.alter': fail,
    'contract.alterations': fail,
    'contract.approvalStep': fail,
    'template.list': fail,
    'template.detail': fail,
    'template.approvalStep': fail,
    'contract.numberNotices': fail,
    'contract.dismissNumberNotice': fail,
    'online.call': fail,
    'files.uploadBegin': fail,
    'files.uploadChunk': fail,
    'files.uploadFinish': fail,
    'files.uploadCancel': fail,
    'files.open': fail,
    'files.queue': fail,
    'directory.get': fail,
    'fulfilment.contract': fail,
    'fulfilment.finishForm': fail,
    'fulfilment.finish': fail,
    'fulfilment.finishBatch': fail,
    'fulfilment.restore': fail,
    'fulfilment.restoreTask': fail,
    'fulfilment.deleteQuickTask': fail,
    'fulfilment.deleteTask': fail,
    'fulfilment.savePlan': fail,
    'fulfilment.createPlan': fail,
    'fulfilment.deletePlan': fail,
    'fulfilment.relateCandidates': fail,
    'fulfilment.relate': fail,
    'fulfilment.unrelate': fail,
    'performance.statistics': fail,
    'performance.board': fail,
    'performance.quickTask': fail,
    'performance.reminderSettings': fail,
    'performance.saveReminderSettings': fail,
    'scene.list': fail,
    'scene.create': fail,
    'scene.update': fail,
    'scene.delete': fail,
    'scene.reorder': fail,
    'scene.setDefault': fail,
    'ledger.fields': fail,
    'ledger.search': fail,
    'ledger.export': fail,
    'ledger.exportRead': fail,
    'audit.export': fail,
    'audit.exportRead': fail,
    'search.fullText': fail,
    'archive.get': fail,
    'archive.confirm': fail,
    'archive.read': fail,
    'archive.cacheUsage': fail,
    'contractDocument.produce': fail,
    'contractDocument.read': fail,
    'contractDocument.template': fail,
    'contract.transfer': fail,
    'cached.read': fail,
    'counterparties.list': fail,
    'scoring.detail': fail,
    'scoring.save': fail,
    'reminders.list': fail,
    'reminders.snooze': fail,
    'reminders.dismiss': fail,
    ...overrides,
  };
}

/** A logger whose errors a test reads back. */
function recordingLogger() {
  const errors: [string, unknown][] = [];
  const logger: Logger = { info: () => undefined, warn: () => undefined, error: (message, detail) => void errors.push([message, detail]) };
  return { logger, errors };
}

const createDispatcher = (all: ChannelHandlers, logger: Logger = recordingLogger().logger) => dispatcherOf(all, logger);

describe('IPC dispatcher', () => {
  it('answers a valid call with its data', async () => {
    const dispatch = createDispatcher(handlers());
    expect(await dispatch('app.info', {})).toEqual({ ok: true, data: { version: '1', host: 'web', systemLocale: 'en-US', organizationShare: false } });
  });

  it('refuses an unknown channel as a value', async () => {
    const result = await createDispatcher(handlers())('contracts.dropAll', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  it('refuses a malformed request naming the field, without calling the handler', async () => {
    const page = vi.fn();
    const dispatch = createDispatcher(handlers({ 'ledger.contractPage': page }));
    const result = await dispatch('ledger.contractPage', { pageSize: 7, status: 9 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('validation_failed');
    expect(result.error.message).toMatch(/^validation failed: /);
    expect(result.error.issues?.map((i) => i.path).sort()).toEqual(['pageSize', 'status']);
    expect(page).not.toHaveBeenCalled();
  });

  it('refuses unknown fields', async () => {
    const result = await createDispatcher(handlers())('app.info', { extra: true });
    expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
  });

  it('returns a thrown AppFailure as its value and hides other errors', async () => {
    const dispatch = createDispatcher(
      handlers({
        'ledger.contractStatistics': () => {
          throw new AppFailure('not_signed_in');
        },
        'session.get': () => {
          throw new Error('secret internals');
        },
      }),
    );
    expect(await dispatch('ledger.contractStatistics', {})).toEqual({ ok: false, error: { code: 'not_signed_in', message: 'Please sign in first.' } });
    const hidden = await dispatch('session.get', undefined);
    expect(hidden).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(hidden)).not.toContain('secret internals');
  });

  it('logs a fault with its channel and stack, but not an expected refusal', async () => {
    const { logger, errors } = recordingLogger();
    const dispatch = createDispatcher(
      handlers({
        'ledger.contractStatistics': () => {
          throw new AppFailure('not_signed_in');
        },
        'scene.list': () => {
          throw { code: 'not_found', message: 'No such scene.' };
        },
        'ledger.search': () => Promise.reject(new TypeError('cannot read properties of undefined')),
      }),
      logger,
    );
    await dispatch('ledger.contractStatistics', {});
    await dispatch('scene.list', {});
    expect(errors).toEqual([]);
    expect(await dispatch('ledger.search', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(errors).toEqual([['ledger.search failed', expect.stringMatching(/^TypeError: cannot read properties of undefined\n\s+at /)]]);
  });

  it('applies request defaults before the handler runs', async () => {
    const page = vi.fn(() => ({ list: [], count: 0 }));
    await createDispatcher(handlers({ 'ledger.contractPage': page }))('ledger.contractPage', {});
    expect(page).toHaveBeenCalledWith({ status: null, q: '', pageNum: 1, pageSize: 20, sort: { field: 'updateTime', order: 'desc' } });
  });

  it('validates contract.update before the outbox sees it: unknown fields, an empty patch, a status set by hand, an id that is no UUID', async () => {
    const update = vi.fn(() => ({ mutationId: 'm' }));
    const dispatch = createDispatcher(handlers({ 'contract.update': update }));
    const id = '0192f000-0000-7000-8000-000000000001';
    expect(await dispatch('contract.update', { id, patch: { name: ' New name ' } })).toEqual({ ok: true, data: { mutationId: 'm' } });
    expect(update).toHaveBeenCalledWith({ id, patch: { name: 'New name' } });
    for (const bad of [{ id, patch: {} }, { id, patch: { version: 3 } }, { id, patch: { status: 2 } }, { id: '', patch: { name: 'x' } }, { id: 'c-1', patch: { name: 'x' } }, { id, patch: { name: '' } }]) {
      expect(await dispatch('contract.update', bad)).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    }
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('settles problems by mutation id only', async () => {
    const dismiss = vi.fn();
    const dispatch = createDispatcher(handlers({ 'sync.dismiss': dismiss, 'sync.keepTheirs': dismiss, 'sync.applyMineAgain': dismiss }));
    for (const channel of ['sync.dismiss', 'sync.keepTheirs', 'sync.applyMineAgain'] as const) {
      expect(await dispatch(channel, {})).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'id' }] } });
      expect(await dispatch(channel, { id: 'm-1', extra: true })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    }
    expect(dismiss).not.toHaveBeenCalled();
  });
});
