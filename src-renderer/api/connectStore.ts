import { api, sessionReceived, syncStatusReceived, tagTypes } from './api';
import { connectionChanged } from '../bridge/connectionSlice';
import type { Transport } from '../bridge/transport';
import type { AppStore } from '../app/store';

/** Pushes from the core (events and the line's health) become store updates. */
export function connectStore(store: AppStore, { bridge, onConnectionChange }: Transport): void {
  bridge.on('data.changed', ({ entities }) => {
    if (entities.includes('contract')) store.dispatch(api.util.invalidateTags(['Contract', 'ContractDetail']));
    if (entities.includes('draftingCatalogue')) store.dispatch(api.util.invalidateTags(['Catalogue']));
    // A contract's status decides whether its tasks may be finished (a change under approval).
    if (entities.some((entity) => entity === 'performanceTask' || entity === 'performancePlan' || entity === 'contract')) {
      store.dispatch(api.util.invalidateTags(['ContractTasks']));
    }
    if (entities.includes('numberNotice')) store.dispatch(api.util.invalidateTags(['NumberNotice']));
    if (entities.includes('scene')) store.dispatch(api.util.invalidateTags(['Scene', 'LedgerSearch']));
    if (entities.includes('contract') || entities.includes('performanceTask')) store.dispatch(api.util.invalidateTags(['LedgerSearch']));
  });
  bridge.on('sync.statusChanged', (status) => store.dispatch(syncStatusReceived(status)));
  bridge.on('session.changed', (session) => store.dispatch(sessionReceived(session)));
  onConnectionChange((state) => {
    const wasDown = store.getState().connection.state === 'reconnecting';
    store.dispatch(connectionChanged(state));
    // Events pushed while the socket was down are lost: refetch whatever the screens show.
    if (state === 'open' && wasDown) store.dispatch(api.util.invalidateTags([...tagTypes]));
  });
}
