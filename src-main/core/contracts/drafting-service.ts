import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { EndpointName, EndpointResponse } from '../../../src-shared/api/endpoints';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { ContractStatus } from '../../../src-shared/domain/enums';
import { AppFailure, reason, toAppError } from '../../../src-shared/errors';
import type {
  alterContractRequestSchema,
  CatalogueContractType,
  CatalogueCounterparty,
  ContractHistory,
  createContractRequestSchema,
  DraftingCatalogue,
  NumberNotice,
  onlineCallRequestSchema,
  ReplicaContractDetail,
  saveContractFormRequestSchema,
  templateApprovalStepRequestSchema,
  templateListRequestSchema,
} from '../../../src-shared/ipc/drafting';
import { approverRefusal } from '../../../src-shared/rules/contract-status';
import type { ContractServerRequest } from '../contract-server/client';
import { alterationHistoryStore } from './alteration-history';
import { draftingStore, type FetchedCatalogue, type PartySearch } from './drafting-store';
import type { EventHub } from '../events';
import type { Clock, Logger } from '../ports';
import { authorizedCall } from '../session/authorized-call';
import { cachedReadStore } from '../data/cached-reads';
import { counterpartyRowKind } from '../counterparties';
import { checkedEndpointRequest, onlineCall as serverOnlyCall } from '../session/online-call';
import type { ActiveSession } from '../session/session-service';
import type { SyncService } from '../sync/sync-service';
import { contractNotFound } from './contract-store';
import { checkedForm } from './mutations';
import { numberAfter, previewRuleFor } from './provisional-number';

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

  async function fetchCatalogue(): Promise<{ fetched: FetchedCatalogue; partyRows: EndpointResponse<'counterpartyList'>['list'] }> {
    const refreshedAt = clock.now().toISOString();
    const summaries = await allPages((pageNum) => serverCall('templateList', { query: { pageNum, pageSize } }));
    const approved = summaries.filter((template) => template.status === ContractStatus.Approved);
    const templates: TemplateDetail[] = [];
    // A kept template of the same version needs no second fetch: refreshes stay one list call.
    for (const template of approved) {
      const kept = store.template(template.id);
      templates.push(kept?.version === template.version ? kept : await serverCall('templateDetail', { params: { id: template.id } }));
    }
    const contractTypes = contractTypeOptions((await serverCall('contractTypeList')).list);
    const numberingPreview = (await serverCall('contractNumberRulesPreview')).list;
    const isNumberEditor = (await serverCall('contractNumberEditors')).editors.includes(session.user.id);
    const counterparties: CatalogueCounterparty[] = [];
    const partyRows: EndpointResponse<'counterpartyList'>['list'] = [];
    for (const partyType of [1, 2] as const) {
      const rows = await allPages((pageNum) => serverCall('counterpartyList', { query: { type: partyType, pageNum, pageSize } }));
      counterparties.push(...rows.map((row) => ({ id: row.id, name: row.name, partyType, creditCode: row.idNumber })));
      partyRows.push(...rows);
    }
    return { fetched: { refreshedAt, templates, contractTypes, numberingPreview, isNumberEditor, counterparties }, partyRows };
  }

  /** One fetch at a time; each caller of a running one waits for it. */
  function refresh(): Promise<DraftingCatalogue> {
    refreshing ??= (async () => {
      try {
        const { fetched, partyRows } = await fetchCatalogue();
        // The session ended meanwhile: its replica is closed.
        if (stopped) throw new AppFailure('not_signed_in');
        session.replica.db.transaction(() => {
          store.save(fetched);
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

  function templateOrNotFound(id: string): TemplateDetail {
    const template = store.template(id);
    if (!template) throw new AppFailure('not_found', `template ${id} is not in this device's catalogue: open drafting once while online to fetch it`);
    return template;
  }

  function contractOrNotFound(id: string): ReplicaContractDetail {
    const detail = store.contractDetail(id);
    if (!detail) throw contractNotFound(id);
    return detail;
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
        logger.warn(`the drafting catalogue could not be fetched: ${toAppError(cause).message}`);
        return store.catalogue();
      }
    },

    /** At session start and after each sync round: fetches when never fetched or older than `staleMs`. */
    refreshIfStale(): void {
      if (stopped || refreshing || !isStale()) return;
      refresh().catch((cause: unknown) => logger.warn(`the drafting catalogue could not be fetched: ${toAppError(cause).message}`));
    },

    template: templateOrNotFound,
    searchParties: (query: PartySearch) => store.searchParties(query),
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
      const { name, formValues } = checkedForm(request.name, template?.fields ?? [], request.formValues);
      const templateTypeId = template?.contractTypeId ?? null;
      const rule = previewRuleFor(catalogue.numberingPreview, { contractTypeId: request.contractTypeId ?? templateTypeId, departmentId: session.user.departmentId });
      // The number input is editable only for number editors, or when no auto mode applies (spec 4).
      if (request.contractNumber !== null && rule && !catalogue.isNumberEditor) throw new AppFailure('forbidden', notEditorMessage, undefined, reason('numberEditorsOnly'));
      const id = uuidv7();
      const at = clock.now().toISOString();
      let provisionalNumber: string | null = null;
      const { mutationId } = options.sync().editWith('contract.create', () => {
        if (request.contractNumber === null && rule) provisionalNumber = store.reserveProvisionalNumber(id, (step) => numberAfter(rule.format, step), at);
        return { id, name, templateId: request.templateId, contractTypeId: request.contractTypeId, contractNumber: request.contractNumber, provisionalNumber, formValues };
      });
      return { id, mutationId, contractNumber: request.contractNumber ?? provisionalNumber, numberProvisional: provisionalNumber !== null };
    },

    /** Saves a contract's form (a contract.update of its name, type, number and values). */
    saveForm(request: z.output<typeof saveContractFormRequestSchema>) {
      const contract = contractOrNotFound(request.id);
      const fields = contract.templateId === null ? [] : (store.template(contract.templateId)?.fields ?? null);
      const form = checkedForm(request.name, fields, { ...contract.formValues, ...request.formValues });
      // The patch carries only the values the save changes, as cleaned.
      const formValues = Object.fromEntries(Object.keys(request.formValues).map((key) => [key, form.formValues[key]]));
      const changesNumber = request.contractNumber !== undefined && request.contractNumber !== contract.contractNumber;
      if (changesNumber && contract.contractNumberAuto && !store.catalogue().isNumberEditor) throw new AppFailure('forbidden', notEditorMessage, undefined, reason('numberEditorsOnly'));
      const patch = { name: form.name, contractTypeId: request.contractTypeId, formValues, ...(changesNumber && { contractNumber: request.contractNumber }) };
      return options.sync().edit('contract.update', { id: request.id, patch });
    },

    /** Alters an approved contract; which fields may change is the server's to decide (spec 4). */
    alter(request: z.output<typeof alterContractRequestSchema>) {
      return options.sync().edit('contract.alter', request);
    },

    /**
     * The contract's history: the server's alterations when it answers (kept with their fetch
     * time), the kept ones "as of" that time while offline, and this device's own edits.
     */
    async history(id: string): Promise<ContractHistory> {
      contractOrNotFound(id);
      const localChanges = () => history.localChanges(id);
      try {
        const { list } = await serverCall('contractAlterations', { params: { id } });
        if (stopped) throw new AppFailure('not_signed_in');
        const fetchedAt = clock.now().toISOString();
        history.keep(id, list, fetchedAt);
        return { alterations: list, fetchedAt, offline: false, localChanges: localChanges() };
      } catch (cause) {
        if (!(cause instanceof AppFailure)) throw cause;
        // A draft made here that has not reached the server yet has no server history.
        const drafted = localChanges().some((change) => change.name === 'contract.create');
        if (cause.error.code === 'not_found' && drafted) return { alterations: [], fetchedAt: null, offline: false, localChanges: localChanges() };
        if (cause.error.code !== 'server_unreachable') throw cause;
        const kept = history.kept(id);
        return { alterations: kept?.alterations ?? [], fetchedAt: kept?.fetchedAt ?? null, offline: true, localChanges: localChanges() };
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
