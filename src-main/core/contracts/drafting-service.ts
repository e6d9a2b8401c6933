import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { EndpointName, EndpointResponse } from '../../../src-shared/api/endpoints';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { ContractStatus, RuleScope } from '../../../src-shared/domain/enums';
import { AppFailure, reason, toAppError } from '../../../src-shared/errors';
import type {
  alterContractRequestSchema,
  CatalogueContractType,
  CatalogueCounterparty,
  ContractHistory,
  createContractRequestSchema,
  DraftingCatalogue,
  DuplicateCheckAnswer,
  duplicateCheckRequestSchema,
  NumberNotice,
  onlineCallRequestSchema,
  PartySearchResult,
  RelatedCandidates,
  relatedCandidatesRequestSchema,
  ReplicaContractDetail,
  saveContractFormRequestSchema,
  templateApprovalStepRequestSchema,
  templateListRequestSchema,
} from '../../../src-shared/ipc/drafting';
import { approverRefusal } from '../../../src-shared/rules/contract-status';
import { mutations, type MutationArgs } from '../../../src-shared/sync/mutations';
import type { ContractServerRequest } from '../contract-server/client';
import { alterationHistoryStore } from './alteration-history';
import { draftingStore, type FetchedCatalogue, type PartySearch } from './drafting-store';
import type { EventHub } from '../events';
import type { Clock, Logger } from '../ports';
import { authorizedCall } from '../session/authorized-call';
import { cachedReadStore } from '../data/cached-reads';
import { counterpartyRowKind } from '../counterparties';
import { checkedEndpointRequest, isServerAway, onlineCall as serverOnlyCall } from '../session/online-call';
import { counterpartSearchItemSchema } from '../../../src-shared/api/counterparties';
import { withNewPartyIds, newPartiesIn } from '../../../src-shared/form/parties';
import { relatedCandidateLimit } from '../../../src-shared/form/related-contracts';
import type { FieldConfig } from '../../../src-shared/domain/contract-forms';
import { currentContract } from './contract-store';
import { searchRelatedCandidates } from './related-candidates';
import { duplicateNumbers } from './duplicate-numbers';
import type { ActiveSession } from '../session/session-service';
import type { SyncService } from '../sync/sync-service';
import { contractNotFound } from './contract-store';
import { checkedForm } from './mutations';
import { numberAfter } from './provisional-number';
import { blankContractFields } from '../../../src-shared/rules/blank-contract';
import { contractTypeOf } from '../../../src-shared/rules/contract-terms';
import { catalogueRuleFor } from '../../../src-shared/rules/numbering-scope';

// Contract drafting for one signed-in session (issue 6): the offline catalogue, fetched from the
// server when the session opens and again after a sync once it is older than a few minutes;
// drafts, form saves and alterations written to the replica and the outbox (so all of it works
// offline); and the form's server-only calls, which answer OFFLINE while the server is away.

export interface DraftingServiceOptions {
  session: ActiveSession;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  /** The session's sync, through which every edit is queued. */
  sync: () => SyncService;
  /** How old the catalogue may get before a sync round fetches it again. */
  staleMs?: number;
}

/** The server's own words (src-server/contract-forms/contracts.ts), so a refusal reads the same offline. */
const notEditorMessage = 'the contract number is generated automatically: only contract-number editors may change it';
const pageSize = 100;
/** Where the catalogue's version (GET templates/catalogue_version) is kept beside it. */
const catalogueVersionKind = 'draftingCatalogueVersion';
/** The kind under which each counterpart/list result is kept (cached_reads), for the pickers offline. */
const counterpartSearchKind = 'counterpartSearchItem';


/** Every page of a paged endpoint. */
async function allPages<T>(page: (pageNum: number) => Promise<{ list: T[]; count: number }>): Promise<T[]> {
  const all: T[] = [];
  for (let pageNum = 1; ; pageNum += 1) {
    const { list, count } = await page(pageNum);
    all.push(...list);
    if (list.length < pageSize || all.length >= count) return all;
  }
}

/** A type that others sit under only groups them: it cannot be chosen (the case type cascader's disabled nodes). */
export function contractTypeOptions(types: readonly { id: string; name: string; parentId: string | null }[]): CatalogueContractType[] {
  const parents = new Set(types.flatMap((type) => (type.parentId === null ? [] : [type.parentId])));
  return types.map((type) => ({ ...type, disabled: parents.has(type.id) }));
}

export function createDraftingService(options: DraftingServiceOptions) {
  const { session, hub, clock, logger } = options;
  const staleMs = options.staleMs ?? 5 * 60_000;
  const store = draftingStore(session.replica, session.user.id);
  const history = alterationHistoryStore(session.replica, session.user.id);
  const keptReads = cachedReadStore(session.replica.db, session.user.id);
  let refreshing: Promise<DraftingCatalogue> | null = null;
  let stopped = false;

  /** A call with the session's token, signing in again once with the refresh token on 401. */
  const serverCall = <N extends EndpointName>(name: N, request: ContractServerRequest<N> = {}): Promise<EndpointResponse<N>> =>
    authorizedCall(session, name, request);

  /** A call only the server can answer: OFFLINE, at once, while it cannot be reached. */
  const onlineCall = <N extends EndpointName>(name: N, request: ContractServerRequest<N>): Promise<EndpointResponse<N>> => serverOnlyCall(session, name, request);

  async function fetchCatalogue(): Promise<{ fetched: FetchedCatalogue; version: string; partyRows: EndpointResponse<'counterpartyList'>['list'] }> {
    const refreshedAt = clock.now().toISOString();
    // Asked first: an approval while the rest is fetched moves it again, and the next round fetches once more.
    const { version } = await serverCall('templateCatalogueVersion');
    const summaries = await allPages((pageNum) => serverCall('templateList', { query: { pageNum, pageSize } }));
    const approved = summaries.filter((template) => template.status === ContractStatus.Approved);
    const templates: TemplateDetail[] = [];
    // A kept template of the same version needs no second fetch: refreshes stay one list call.
    for (const template of approved) {
      const kept = store.template(template.id);
      templates.push(kept?.version === template.version ? kept : await serverCall('templateDetail', { params: { id: template.id } }));
    }
    const contractTypes = contractTypeOptions((await serverCall('contractTypeList')).list);
    // Every contract type's rule (the form chooses by the type picked), and the rule this user's
    // department or the default gives them, as auto_preview answers it (it knows their main
    // department and the department tree, which the replica does not).
    const typeRules = (await serverCall('contractNumberRulesPreview')).list.filter((rule) => rule.conditionType === RuleScope.ContractType);
    const initiatorRules = (await serverCall('contractNumberAutoPreview')).list.filter((rule) => rule.conditionType !== RuleScope.ContractType);
    const numberingPreview = [...typeRules, ...initiatorRules];
    const isNumberEditor = (await serverCall('contractNumberEditors')).editors.includes(session.user.id);
    const counterparties: CatalogueCounterparty[] = [];
    const partyRows: EndpointResponse<'counterpartyList'>['list'] = [];
    for (const partyType of [1, 2] as const) {
      const rows = await allPages((pageNum) => serverCall('counterpartyList', { query: { type: partyType, pageNum, pageSize } }));
      counterparties.push(...rows.map((row) => ({ id: row.id, name: row.name, partyType, creditCode: row.idNumber })));
      partyRows.push(...rows);
    }
    return { fetched: { refreshedAt, templates, contractTypes, numberingPreview, isNumberEditor, counterparties }, version, partyRows };
  }

  /** One fetch at a time; each caller of a running one waits for it. */
  function refresh(): Promise<DraftingCatalogue> {
    refreshing ??= (async () => {
      try {
        const { fetched, version, partyRows } = await fetchCatalogue();
        // The session ended meanwhile: its replica is closed.
        if (stopped) throw new AppFailure('not_signed_in');
        session.replica.db.transaction(() => {
          store.save(fetched);
          keptReads.write(catalogueVersionKind, '', version, fetched.refreshedAt);
          // The counterparty lists read these rows offline (one store of counterparties: see core/counterparties).
          for (const row of partyRows) keptReads.write(counterpartyRowKind, row.id, row, fetched.refreshedAt);
        });
        hub.emit('data.changed', { entities: ['draftingCatalogue'] });
        return store.catalogue();
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  // Asked on every idle sync status (each local edit publishes one): the fetch time alone, not the catalogue.
  function isStale(): boolean {
    const refreshedAt = store.refreshedAt();
    return refreshedAt === null || clock.now().getTime() - Date.parse(refreshedAt) >= staleMs;
  }

  /** Whether the server's approved templates moved since the kept catalogue was fetched. */
  async function catalogueMoved(): Promise<boolean> {
    const { version } = await serverCall('templateCatalogueVersion');
    return keptReads.read(catalogueVersionKind, '', z.string())?.value !== version;
  }

  function templateOrNotFound(id: string): TemplateDetail {
    const template = store.template(id);
    if (!template) throw new AppFailure('not_found', `template ${id} is not in this device's catalogue: open drafting once while online to fetch it`);
    return template;
  }

  /** Fetches and keeps a contract's template the catalogue does not offer (see contractTemplateKind). */
  async function fetchContractTemplate(id: string): Promise<TemplateDetail> {
    const template = await serverCall('templateDetail', { params: { id } });
    if (stopped) throw new AppFailure('not_signed_in');
    store.keepContractTemplate(template, clock.now().toISOString());
    return template;
  }

  /**
   * A contract's form never waits for the catalogue: the kept template (catalogue or the
   * contract's copy), else the server's, kept for next time (a first sync still filling the
   * catalogue, a template no longer offered for drafting).
   */
  async function contractTemplate(id: string): Promise<TemplateDetail> {
    const kept = store.template(id);
    if (kept) return kept;
    try {
      return await fetchContractTemplate(id);
    } catch (cause) {
      if (!isServerAway(cause)) throw cause;
      throw new AppFailure('offline', `template ${id} is not on this device yet: it is fetched once the server is reachable`, undefined, reason('templateNotKept'));
    }
  }

  /** Keeps the templates of this device's contracts that it holds no copy of, so their forms show offline. */
  async function keepContractTemplates(): Promise<void> {
    for (const id of store.missingContractTemplates()) {
      if (stopped) return;
      try {
        await fetchContractTemplate(id);
      } catch (cause) {
        // A template gone from the server cannot be kept; the others still are.
        if (!(cause instanceof AppFailure) || cause.error.code !== 'not_found') throw cause;
        logger.warn(`the template of a contract could not be kept: ${cause.error.message}`);
      }
    }
  }

  function contractOrNotFound(id: string): ReplicaContractDetail {
    const detail = store.contractDetail(id);
    if (!detail) throw contractNotFound(id);
    return detail;
  }


  /**
   * The form values a save queues: each party typed in gets its counterparty's id now, and joins
   * the kept counterparties, so the pickers find it offline and the server makes it exactly once
   * with the contract. Call inside the transaction that queues the save.
   */
  function withNewParties(fields: readonly FieldConfig[], formValues: Record<string, unknown>): Record<string, unknown> {
    const values = withNewPartyIds(fields, formValues, () => uuidv7());
    const added = newPartiesIn(fields, values).map(({ party, partyType }) => ({ id: party.id, name: party.name, partyType, creditCode: null }));
    if (added.length > 0) store.keepParties(added);
    return values;
  }

  /** The form's fields of a saved contract (the built-in basic form without a template); null when its template is not in the catalogue. */
  const contractFields = (contract: Pick<ReplicaContractDetail, 'templateId'>): readonly FieldConfig[] | null =>
    contract.templateId === null ? blankContractFields : (store.template(contract.templateId)?.fields ?? null);

  /**
   * The party picker's search: counterpart/list while the server answers (each result kept, with
   * its details, banks and contacts, and joining the kept counterparties), else the kept ones
   * with the details last fetched.
   */
  async function searchParties(query: PartySearch): Promise<{ list: PartySearchResult[]; count: number }> {
    if (query.keyword !== '' && query.partyType !== undefined) {
      try {
        const { list } = await onlineCall('counterpartSearch', { query: { abbr: query.keyword, type: query.partyType } });
        const partyType = query.partyType;
        const at = clock.now().toISOString();
        session.replica.db.transaction(() => {
          store.keepParties(list.map((item) => ({ id: item.id, name: item.name, partyType, creditCode: typeof item.fieldDetailMap.idNumber === 'string' ? item.fieldDetailMap.idNumber : null })));
          for (const item of list) keptReads.write(counterpartSearchKind, item.id, item, at);
        });
        const start = (query.pageNum - 1) * query.pageSize;
        return {
          list: list.slice(start, start + query.pageSize).map((item) => ({ ...item, partyType, creditCode: typeof item.fieldDetailMap.idNumber === 'string' ? item.fieldDetailMap.idNumber : null })),
          count: list.length,
        };
      } catch (cause) {
        if (!isServerAway(cause)) throw cause;
      }
    }
    const kept = store.searchParties(query);
    return {
      count: kept.count,
      list: kept.list.map((party) => {
        const item = keptReads.read(counterpartSearchKind, party.id, counterpartSearchItemSchema)?.value;
        return item ? { ...party, fieldDetailMap: item.fieldDetailMap, bankItemList: item.bankItemList, contactItemList: item.contactItemList } : party;
      }),
    };
  }

  /** The stored args of a refused edit the contract detail named. */
  function refusedArgs<N extends 'contract.create' | 'contract.update'>(id: string, name: N): MutationArgs<N> {
    const refused = options.sync().refused(id);
    const args = refused?.name === name ? mutations[name].args.safeParse(refused.args) : null;
    if (!args?.success) throw new AppFailure('not_found', 'There is no such rejected change.');
    return args.data as MutationArgs<N>;
  }

  function noticesChanged(): NumberNotice[] {
    hub.emit('data.changed', { entities: ['numberNotice'] });
    return store.numberNotices();
  }

  return {
    catalogue: (): DraftingCatalogue => store.catalogue(),

    /** Fetches the catalogue now; offline (or refused) it answers the kept one. */
    async refreshNow(): Promise<DraftingCatalogue> {
      try {
        return await refresh();
      } catch (cause) {
        if (stopped) throw cause;
        logger.warn('the drafting catalogue could not be fetched', toAppError(cause));
        return store.catalogue();
      }
    },

    /** At session start: fetches when never fetched or older than `staleMs`. */
    refreshIfStale(): void {
      if (stopped || refreshing || !isStale()) return;
      refresh().catch((cause: unknown) => logger.warn('the drafting catalogue could not be fetched', toAppError(cause)));
    },

    /**
     * After each sync round: fetches when stale, or when a template was approved since the kept
     * catalogue's fetch (one small read of its version), so drafters have it at their next sync;
     * then keeps the templates of pulled contracts that the catalogue does not offer.
     */
    refreshAfterSync(): void {
      if (stopped || refreshing) return;
      (async () => {
        if (isStale() || (await catalogueMoved())) await refresh();
        await keepContractTemplates();
      })().catch((cause: unknown) => logger.warn(`the drafting catalogue could not be fetched: ${toAppError(cause).message}`));
    },

    template: contractTemplate,
    searchParties,

    /** A related-contracts field's candidates: the server's search (by name or number) while it answers, this device's contracts otherwise. */
    async relatedCandidates(request: z.output<typeof relatedCandidatesRequestSchema>): Promise<RelatedCandidates> {
      try {
        const { list } = await onlineCall('contractsForRelated', { query: { relationType: 3, type: 1, ...(request.q ? { q: request.q } : {}) } });
        return { list: list.slice(0, relatedCandidateLimit).map((c) => ({ id: c.id, name: c.name, contractNumber: c.contractNumber })), offline: false, asOf: clock.now().toISOString() };
      } catch (cause) {
        if (!isServerAway(cause)) throw cause;
        return { list: searchRelatedCandidates(session.replica, request.q, relatedCandidateLimit), offline: true, asOf: session.meta.lastSyncAt() };
      }
    },

    /** The duplicate check: the server's while it answers, else this device's numbers as of its last sync (none yet: 'offline'). */
    async checkDuplicate(query: z.output<typeof duplicateCheckRequestSchema>): Promise<DuplicateCheckAnswer> {
      try {
        const value = await onlineCall('contractNumberCheckDuplicate', { query });
        return { value, asOf: clock.now().toISOString(), offline: false };
      } catch (cause) {
        if (!isServerAway(cause)) throw cause;
        const asOf = session.meta.lastSyncAt();
        if (asOf === null) throw new AppFailure('offline');
        return { value: duplicateNumbers(session.replica, query), asOf, offline: true };
      }
    },
    detail: contractOrNotFound,

    /**
     * Drafts a contract: the replica row and the outbox mutation in one transaction. Without a
     * number, one the rules will give: a provisional number from the kept preview, never one
     * shown here before, which the server confirms or replaces on sync.
     */
    create(request: z.output<typeof createContractRequestSchema>) {
      const catalogue = store.catalogue();
      // Drafting from a template needs its fields: the catalogue keeps them for offline use.
      const template = request.templateId === null ? null : templateOrNotFound(request.templateId);
      const fields = template?.fields ?? blankContractFields;
      const { name, formValues } = checkedForm(request.name, fields, request.formValues);
      // Numbered by the rule of the type the server will store: the given one, else the form's, else the template's.
      const contractTypeId = request.contractTypeId ?? contractTypeOf(fields, formValues, template?.contractTypeId ?? null);
      // The server refuses a type it does not know: so does the kept catalogue, once fetched.
      if (contractTypeId !== null && catalogue.refreshedAt !== null && !catalogue.contractTypes.some((type) => type.id === contractTypeId)) {
        throw new AppFailure('not_found', `contract type ${contractTypeId} does not exist`, undefined, reason('contractTypeMissing'));
      }
      const rule = catalogueRuleFor(catalogue.numberingPreview, contractTypeId);
      // The number input is editable only for number editors, or when no auto mode applies (spec 4).
      if (request.contractNumber !== null && rule && !catalogue.isNumberEditor) throw new AppFailure('forbidden', notEditorMessage, undefined, reason('numberEditorsOnly'));
      const id = uuidv7();
      const at = clock.now().toISOString();
      let provisionalNumber: string | null = null;
      const { mutationId } = options.sync().editWith('contract.create', () => {
        if (request.contractNumber === null && rule) provisionalNumber = store.reserveProvisionalNumber(id, (step) => numberAfter(rule.format, step), at);
        const values = withNewParties(template?.fields ?? [], formValues);
        return { id, name, templateId: request.templateId, contractTypeId: request.contractTypeId, contractNumber: request.contractNumber, provisionalNumber, formValues: values };
      });
      return { id, mutationId, contractNumber: request.contractNumber ?? provisionalNumber, numberProvisional: provisionalNumber !== null };
    },

    /**
     * Saves a contract's form (a contract.update of its name, type, number and values). A contract
     * whose draft or last save the server refused gets that edit back, corrected, and re-sent in
     * its place: a refused draft has no row on the server for an update to change.
     */
    saveForm(request: z.output<typeof saveContractFormRequestSchema>) {
      const contract = contractOrNotFound(request.id);
      const fields = contractFields(contract);
      const form = checkedForm(request.name, fields, { ...contract.formValues, ...request.formValues });
      // The patch carries only the values the save changes, as cleaned.
      const formValues = Object.fromEntries(Object.keys(request.formValues).map((key) => [key, form.formValues[key]]));
      const changesNumber = request.contractNumber !== undefined && request.contractNumber !== contract.contractNumber;
      if (changesNumber && contract.contractNumberAuto && !store.catalogue().isNumberEditor) throw new AppFailure('forbidden', notEditorMessage, undefined, reason('numberEditorsOnly'));
      const sync = options.sync();
      const refusal = contract.refusal;
      if (refusal?.kind === 'create') {
        const refused = refusedArgs(refusal.id, 'contract.create');
        return sync.resend(refusal.id, 'contract.create', {
          ...refused,
          name: form.name,
          contractTypeId: request.contractTypeId ?? refused.contractTypeId,
          ...(changesNumber && { contractNumber: request.contractNumber ?? null }),
          formValues: withNewParties(fields ?? [], { ...refused.formValues, ...formValues }),
        });
      }
      // Only what the save changes: a name or type sent as it was would undo another device's change of it (or conflict with it).
      const patch = () => ({
        ...(form.name !== contract.name && { name: form.name }),
        ...(request.contractTypeId !== contract.contractTypeId && { contractTypeId: request.contractTypeId }),
        formValues: withNewParties(fields ?? [], formValues),
        ...(changesNumber && { contractNumber: request.contractNumber }),
      });
      if (refusal?.kind === 'update') {
        const refused = refusedArgs(refusal.id, 'contract.update');
        const next = patch();
        return sync.resend(refusal.id, 'contract.update', { id: request.id, patch: { ...refused.patch, ...next, formValues: { ...refused.patch.formValues, ...next.formValues } } });
      }
      return sync.editWith('contract.update', () => ({ id: request.id, patch: patch() }));
    },

    /** Alters an approved contract; which fields may change is the server's to decide (spec 4). */
    alter(request: z.output<typeof alterContractRequestSchema>) {
      // A contract not on this device is refused by the outbox as the server refuses it.
      const contract = store.contractDetail(request.id);
      const fields = (contract && contractFields(contract)) ?? [];
      return options.sync().editWith('contract.alter', () => ({ ...request, formValues: withNewParties(fields, request.formValues) }));
    },

    /**
     * The contract's history: the server's alterations when it answers (kept with their fetch
     * time), the kept ones "as of" that time while offline, and this device's own edits.
     */
    async history(id: string): Promise<ContractHistory> {
      contractOrNotFound(id);
      const localChanges = () => history.localChanges(id);
      // The approval steps come with the contract through the feed: shown offline as well.
      const approvalTrail = currentContract(session.replica.db, id)?.approvalTrail ?? [];
      try {
        const { list } = await serverCall('contractAlterations', { params: { id } });
        if (stopped) throw new AppFailure('not_signed_in');
        const fetchedAt = clock.now().toISOString();
        history.keep(id, list, fetchedAt);
        return { alterations: list, approvalTrail, fetchedAt, offline: false, localChanges: localChanges() };
      } catch (cause) {
        if (!(cause instanceof AppFailure)) throw cause;
        // A draft made here that has not reached the server yet has no server history.
        const drafted = localChanges().some((change) => change.name === 'contract.create');
        if (cause.error.code === 'not_found' && drafted) return { alterations: [], approvalTrail, fetchedAt: null, offline: false, localChanges: localChanges() };
        if (cause.error.code !== 'server_unreachable') throw cause;
        const kept = history.kept(id);
        return { alterations: kept?.alterations ?? [], approvalTrail, fetchedAt: kept?.fetchedAt ?? null, offline: true, localChanges: localChanges() };
      }
    },

    numberNotices: () => store.numberNotices(),
    dismissNumberNotice(contractId: string): NumberNotice[] {
      store.dismissNumberNotice(contractId);
      return noticesChanged();
    },

    /**
     * A server read (or the score) the form needs while online, through the endpoint map: the
     * request is checked against the endpoint's schemas first and the answer by the client.
     */
    onlineCall: (request: z.output<typeof onlineCallRequestSchema>): Promise<unknown> => serverOnlyCall(session, request.endpoint, checkedEndpointRequest(request)),

    /** Templates of any status for the template approval page (online only). */
    templateList: (request: z.output<typeof templateListRequestSchema>) =>
      onlineCall('templateList', { query: { pageNum: request.pageNum, pageSize, ...(request.q ? { q: request.q } : {}) } }),

    /** A template as the server has it now (online only: its status moves on the server). */
    templateOnline: (id: string) => onlineCall('templateDetail', { params: { id } }),

    /**
     * Submits, approves or rejects a template (online only: templates are not replicated). A step
     * this user may never take is refused here with the server's message; the status is the server's to check.
     */
    async stepTemplate(request: z.output<typeof templateApprovalStepRequestSchema>): Promise<TemplateDetail> {
      const refusal = approverRefusal(session.user.role, request.action);
      if (refusal) throw refusal;
      const name = ({ submit: 'submitTemplate', approve: 'approveTemplate', reject: 'rejectTemplate' } as const)[request.action];
      return onlineCall(name, { params: { id: request.id }, body: request.comment ? { comment: request.comment } : {} });
    },

    stop(): void {
      stopped = true;
    },
  };
}
export type DraftingService = ReturnType<typeof createDraftingService>;
