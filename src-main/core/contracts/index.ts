import { AppFailure } from '../../../src-shared/errors';
import type { EventPayload } from '../../../src-shared/ipc/channels';
import { firstSyncPending } from '../data/replica-sync';
import type { CoreFeature, FeatureHost } from '../feature';
import { contractOverlay, contractPullWriter } from './contract-store';
import { cooperationInformation } from './cooperation';
import { createDraftingService, type DraftingService } from './drafting-service';
import { contractMutations } from './mutations';

// Contracts and their drafting (spec 2–4): the contract rows of the replica and their
// mutations, the offline drafting catalogue, and the channels of the contract screens.

export const contractsReplica = {
  mutations: contractMutations,
  pulled: { contract: contractPullWriter },
  overlays: { contract: contractOverlay },
};

export type ContractChannel =
  | 'contract.update'
  | 'contract.detail'
  | 'contract.cooperation'
  | 'contract.create'
  | 'contract.saveForm'
  | 'contract.alter'
  | 'contract.alterations'
  | 'contract.approvalStep'
  | 'template.list'
  | 'template.detail'
  | 'template.approvalStep'
  | 'contract.numberNotices'
  | 'contract.dismissNumberNotice'
  | 'drafting.catalogue'
  | 'drafting.refresh'
  | 'drafting.template'
  | 'drafting.searchParties'
  | 'drafting.relatedCandidates'
  | 'drafting.checkDuplicate'
  | 'online.call';

export interface ContractsOptions {
  /** How old the drafting catalogue may get before a sync round fetches it again. */
  catalogueStaleMs?: number;
}

export function createContractsFeature(host: FeatureHost, options: ContractsOptions = {}): CoreFeature<ContractChannel> {
  let drafting: DraftingService | null = null;

  function currentDrafting(): DraftingService {
    host.signedIn();
    if (!drafting) throw new AppFailure('not_signed_in');
    return drafting;
  }

  // After a sync round reached the server (its pull moved the last sync time; a local edit's idle
  // status does not), a catalogue older than a few minutes, or one a template approval has moved
  // on the server since, is fetched again.
  let roundSeen: string | null = null;
  host.hub.subscribe((event, payload) => {
    if (event !== 'sync.statusChanged') return;
    const status = payload as EventPayload<'sync.statusChanged'>;
    if (status.phase !== 'idle' || !status.online || status.lastSyncAt === roundSeen) return;
    roundSeen = status.lastSyncAt;
    drafting?.refreshAfterSync();
  });

  return {
    start(session) {
      drafting = createDraftingService({ session, hub: host.hub, clock: host.clock, logger: host.logger, sync: host.sync, staleMs: options.catalogueStaleMs });
      // A replica still to be filled fetches it once its first sync ended (the idle status above),
      // not beside it on the same link and server; meanwhile the new-contract screen's refresh fetches it.
      if (!firstSyncPending(session.meta)) drafting.refreshIfStale();
    },
    stop() {
      drafting?.stop();
      drafting = null;
    },
    handlers: {
      'contract.update': (args) => host.sync().edit('contract.update', args),
      'contract.detail': ({ id }) => currentDrafting().detail(id),
      'contract.cooperation': ({ id }) => cooperationInformation(host.signedIn().replica, id),
      'contract.create': (request) => currentDrafting().create(request),
      'contract.saveForm': (request) => currentDrafting().saveForm(request),
      'contract.alter': (request) => currentDrafting().alter(request),
      'contract.alterations': ({ id }) => currentDrafting().history(id),
      // The trail keeps when the user took the step here, beside when the server applies it.
      'contract.approvalStep': (args) => host.sync().edit('contract.approvalStep', { ...args, takenAt: args.takenAt ?? host.clock.now().toISOString() }),
      'template.list': (request) => currentDrafting().templateList(request),
      'template.detail': ({ id }) => currentDrafting().templateOnline(id),
      'template.approvalStep': (request) => currentDrafting().stepTemplate(request),
      'contract.numberNotices': () => currentDrafting().numberNotices(),
      'contract.dismissNumberNotice': ({ contractId }) => currentDrafting().dismissNumberNotice(contractId),
      'drafting.catalogue': () => currentDrafting().catalogue(),
      'drafting.refresh': () => currentDrafting().refreshNow(),
      'drafting.template': ({ id }) => currentDrafting().template(id),
      'drafting.searchParties': (query) => currentDrafting().searchParties(query),
      'drafting.relatedCandidates': (request) => currentDrafting().relatedCandidates(request),
      'drafting.checkDuplicate': (query) => currentDrafting().checkDuplicate(query),
      'online.call': (request) => currentDrafting().onlineCall(request),
    },
  };
}
