import { v7 as uuidv7 } from 'uuid';
import { AppFailure } from '../../../src-shared/errors';
import { organisationDay } from '../../../src-shared/rules/performance';
import type { CoreFeature, FeatureHost } from '../feature';
import { directoryStore } from '../directory/directory-store';
import type { ReplicaFeatures } from '../data/replica-features';
import { untilReplicaChanges } from '../data/replica';
import { authorizedCall } from '../session/authorized-call';
import { perSession, type ActiveSession } from '../session/session-service';
import { contractReader } from './contract-ledger';
import { keepLedgerFields, readLedgerFields } from './field-store';
import { catalogs } from '../../../src-shared/i18n/catalogs';
import { createSceneExporter } from './scene-export';
import { createSceneSearch } from './scene-search';
import { readScenes, sceneMutations, sceneOverlay, scenePullWriter } from './scene-store';

// The ledger (spec 2, 3, 5): its contract pages and status counts, the user's scenes (edited
// offline through the outbox) and performances/search, all read from the replica so it works offline.

export type LedgerChannel =
  | 'ledger.contractStatistics'
  | 'ledger.contractPage'
  | 'scene.list'
  | 'scene.create'
  | 'scene.update'
  | 'scene.delete'
  | 'scene.reorder'
  | 'scene.setDefault'
  | 'ledger.fields'
  | 'ledger.search'
  | 'ledger.export'
  | 'ledger.exportRead';

export const ledgerReplica = {
  mutations: sceneMutations(readLedgerFields),
  pulled: { scene: scenePullWriter },
  overlays: { scene: sceneOverlay },
} satisfies Partial<{ [K in keyof ReplicaFeatures]: Partial<ReplicaFeatures[K]> }>;

/** Failures that mean "the server is away", not "the server refused". */
const unreachableCodes: readonly string[] = ['server_unreachable', 'offline'];

/** The field definitions: fetched and kept when the server answers, the kept ones while it cannot be reached. */
async function currentFields(session: ActiveSession) {
  try {
    const { fields } = await authorizedCall(session, 'ledgerTitles', { query: {} });
    const definitions = fields.map(({ isTitle: _isTitle, isFilter: _isFilter, ...field }) => field);
    keepLedgerFields(session.replica.db, definitions);
    return definitions;
  } catch (cause) {
    if (!(cause instanceof AppFailure) || !unreachableCodes.includes(cause.error.code)) throw cause;
    return [...readLedgerFields(session.replica.db)];
  }
}

/** The people cells' names: the kept directory's (the server's users as last fetched). */
function peopleNames(session: ActiveSession): Map<string, string> {
  return new Map(directoryStore(session.replica.db).read()?.users.map((user) => [user.id, user.name]) ?? []);
}

export interface LedgerOptions {
  /** A folder of the core's own for finished exports (temporary: emptied at sign-out). */
  exportsDir: string;
}

export function createLedgerFeature(host: FeatureHost, options: LedgerOptions): CoreFeature<LedgerChannel> {
  // One reader per session: it keeps its prepared statements.
  const readerOf = perSession((session) => contractReader(session.replica));
  const searchOf = perSession((session) => createSceneSearch(session.replica, () => organisationDay(host.clock.now())));
  // The directory is parsed again only after the replica changed, not on every search.
  const peopleOf = perSession((session) => untilReplicaChanges(session.replica.sqlite, () => peopleNames(session)));
  const exporter = createSceneExporter({ dir: options.exportsDir, onProgress: (progress) => host.hub.emit('ledger.exportProgress', progress) });
  const clearExports = () => void exporter.clear().catch((cause: unknown) => host.logger.warn('could not remove the finished exports', String(cause)));
  return {
    start: clearExports,
    stop: clearExports,
    handlers: {
      'ledger.contractStatistics': () => readerOf(host.signedIn()).statistics(),
      'ledger.contractPage': (query) => readerOf(host.signedIn()).page(query),
      'scene.list': () => readScenes(host.signedIn().replica.db),
      'scene.create': (body) => {
        const id = uuidv7();
        return { id, ...host.sync().edit('scene.create', { ...body, id }) };
      },
      'scene.update': (args) => host.sync().edit('scene.update', args),
      'scene.delete': (args) => host.sync().edit('scene.delete', args),
      'scene.reorder': (args) => host.sync().edit('scene.reorder', args),
      'scene.setDefault': (args) => host.sync().edit('scene.setDefault', args),
      'ledger.fields': () => currentFields(host.signedIn()),
      'ledger.search': (search) => {
        const session = host.signedIn();
        return searchOf(session).search(search, peopleOf(session)());
      },
      'ledger.export': ({ exportId, search, language }) => {
        const session = host.signedIn();
        return exporter.write(exportId, search, searchOf(session), peopleOf(session)(), catalogs[language]);
      },
      'ledger.exportRead': ({ exportId, offset }) => {
        host.signedIn();
        return exporter.read(exportId, offset);
      },
    },
  };
}
