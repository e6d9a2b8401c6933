import { z } from 'zod';
import { contractSchema, contractStatisticsSchema, contractStatusSchema } from '../domain/contract';
import { defaultLedgerPageSize, ledgerPageSizes, type LedgerPageSize } from '../domain/enums';
import { userSchema } from '../domain/user';
import { appErrorSchema, type AppError } from '../errors';
import { languages } from '../i18n/languages';
import { pageSchema } from '../api/envelope';
import { mutableEntities, mutations } from '../sync/mutations';
import { boardRequestSchema, boardResponseSchema, dateRangeSchema, quickTaskRequestSchema, quickTaskResponseSchema, reminderSettingsPatchSchema, reminderSettingsSchema, statisticsResponseSchema } from './dashboard';
import {
  alterContractRequestSchema,
  partySearchResultSchema,
  relatedCandidatesRequestSchema,
  relatedCandidatesSchema,
  duplicateCheckAnswerSchema,
  duplicateCheckRequestSchema,
  contractHistorySchema,
  cooperativeInfoRowSchema,
  createContractRequestSchema,
  createContractResponseSchema,
  draftingCatalogueSchema,
  numberNoticeSchema,
  onlineCallRequestSchema,
  partySearchRequestSchema,
  replicaContractDetailSchema,
  saveContractFormRequestSchema,
  templateApprovalStepRequestSchema,
  templateDetailSchema,
  templateListRequestSchema,
} from './drafting';
import { directorySchema } from './directory';
import { contractPerformanceSchema, finishFormRequestSchema, finishFormSchema, planCreateRequestSchema, relateCandidatesSchema } from './fulfilment';
import { ledgerFieldSchema, ledgerRowSchema, ledgerSearchSchema, sceneCreateSchema, transferSchema } from '../domain/ledger';
import { sceneExportRequestSchema, sceneViewSchema } from './scenes';
import { auditExportRequestSchema, exportProgressSchema, exportReadRequestSchema, exportReadResponseSchema, exportResponseSchema } from './exports';
import { cachedAnswerSchema, cachedReadRequestSchema } from './cached-reads';
import { scoreDetailAnswerSchema, scoreDetailRequestSchema, scoreSaveAnswerSchema, scoreSaveRequestSchema } from './scoring';
import { counterpartyListAnswerSchema, counterpartyListRequestSchema } from './counterparties';
import { appReminderListSchema, reminderIdRequestSchema, remindersChangedEventSchema, snoozeReminderRequestSchema } from './reminders';
import { templateSummarySchema } from '../api/contract-forms';
import {
  fileOpenRequestSchema,
  uploadBeginRequestSchema,
  uploadBeginResponseSchema,
  uploadChunkRequestSchema,
  uploadChunkResponseSchema,
  uploadFinishResponseSchema,
  queuedFilesSchema,
  uploadIdRequestSchema,
} from './files';
import {
  archiveCacheMegabytesSchema,
  archiveCacheUsageSchema,
  archiveConfirmRequestSchema,
  archiveContractRequestSchema,
  archivedFileSchema,
  archiveIndexingEventSchema,
  archiveReadRequestSchema,
  archiveReadResponseSchema,
  fullTextPageSchema,
  fullTextSearchRequestSchema,
} from './archive';
import { documentProduceRequestSchema, documentProduceResponseSchema, documentReadRequestSchema, documentReadResponseSchema, templateDocumentRequestSchema } from './contract-document';

// The one typed IPC channel map. Main validates every request against it, the renderer takes its
// types from it, and both hosts (Electron IPC and the web host's WebSocket) carry it unchanged.
// A channel without request and response schemas does not type-check.

export interface ChannelDefinition<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
}

const channel = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({ request, response });
const empty = z.object({}).strict();

/** A server address: http(s) only, no credentials in it. */
export const serverUrlSchema = z
  .string()
  .trim()
  .min(1, 'please enter the server address')
  .max(2048)
  .url('the server address must be a URL such as https://contracts.example.org')
  .refine((value) => /^https?:\/\//i.test(value), 'the server address must start with http:// or https://')
  .refine((value) => !/^https?:\/\/[^/]*@/i.test(value), 'the server address must not contain a user name or password')
  .transform((value) => value.replace(/\/+$/, ''));

export const sessionInfoSchema = z.discriminatedUnion('signedIn', [
  z.object({
    signedIn: z.literal(false),
    serverUrl: z.string().nullable(),
    /** Why the session kept from last time could not be opened (e.g. a damaged replica). */
    problem: appErrorSchema.optional(),
  }),
  z.object({
    signedIn: z.literal(true),
    serverUrl: z.string(),
    user: userSchema,
    /** What the user must know about this session's local data (its key was lost and it was synced afresh). */
    notice: appErrorSchema.optional(),
    /**
     * The offline lock (issue 32): the server has not been reached for too long, so the password
     * is asked before anything opens. `days`: the limit passed; `waitSeconds`: no try before that
     * many seconds from now (after a wrong one; counted by the core's clock, not the window's);
     * `canUnlock` false: no password was kept here, only signing in opens it.
     */
    locked: z.object({ days: z.number().int(), waitSeconds: z.number().int().min(0), canUnlock: z.boolean() }).optional(),
  }),
]);
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const settingsSchema = z.object({
  serverUrl: z.string().nullable(),
  /** null follows the operating system's language. */
  language: z.enum(languages).nullable(),
  /** The bound of the archive cache (archived PDFs kept for reading offline). */
  archiveCacheMegabytes: archiveCacheMegabytesSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

export const syncPhases = ['idle', 'pushing', 'pulling', 'offline', 'paused', 'error'] as const;

/** A queued edit the server refused (rejected) or found stale (conflict), kept until the user settles it. */
export const syncProblemSchema = z.object({
  /** The mutation id. */
  id: z.string(),
  /** The mutation name, e.g. "contract.update". */
  name: z.string(),
  state: z.enum(['rejected', 'conflict']),
  createdAt: z.string(),
  /** The kind of row the edit is about; null for an edit this build cannot read. */
  entity: z.enum(mutableEntities).nullable(),
  /** The id of that row (the screen where a refused edit is corrected opens on it); null for an edit this build cannot read. */
  rowId: z.string().nullable(),
  /** What the edit was about: the row's name as shown locally (contract, task, sheet, scene), when known. */
  subject: z.string().nullable(),
  /** The fields the edit set by field group (src-shared/sync/field-versions.ts), as sent. */
  changes: z.record(z.string(), z.unknown()),
  /** Names the replica knows for keyed field groups (a sheet column's name for "value:<column id>"). */
  fieldNames: z.record(z.string(), z.string()),
  /** Names the replica knows for ids the fields hold (a contract type's, a scene's performance's), by field group, then id. */
  valueNames: z.record(z.string(), z.record(z.string(), z.string())),
  error: appErrorSchema.nullable(),
  /** For a conflict: the server's current values of those fields. */
  theirs: z.record(z.string(), z.unknown()).nullable(),
  /** For a conflict decided per field: the fields of the edit the server changed too (the others would have merged). */
  conflicting: z.array(z.string()),
});
export type SyncProblem = z.infer<typeof syncProblemSchema>;

/** An edit waiting to reach the server, as the sync details list it: its kind and what it is about. */
export const waitingChangeSchema = z.object({
  id: z.string(),
  /** The mutation name, e.g. "performance.savePlan" (its kind). */
  name: z.string(),
  createdAt: z.string(),
  /** The row's name as shown locally (a contract's, a plan's), when known. */
  subject: z.string().nullable(),
});
export type WaitingChange = z.infer<typeof waitingChangeSchema>;
/** At most this many waiting edits are listed; the rest are counted. */
export const waitingListed = 20;

export const syncStatusSchema = z.object({
  /** Whether the contract server answered the last attempt. */
  online: z.boolean(),
  phase: z.enum(syncPhases),
  lastSyncAt: z.string().nullable(),
  /** Changes applied so far in the running pull, and how many the server says remain. */
  pulled: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative().nullable(),
  /** The running pull started from nothing (a first sync or a rebuild): the progress bar shows. */
  firstSync: z.boolean(),
  /** Local edits waiting to reach the server, and when the oldest was made. */
  queued: z.number().int().nonnegative(),
  oldestQueuedAt: z.string().nullable(),
  /** The oldest of them (at most waitingListed), oldest first. */
  waiting: z.array(waitingChangeSchema),
  problems: z.array(syncProblemSchema),
  error: appErrorSchema.nullable(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

const mutationIdRequest = z.object({ id: z.string().min(1).max(64) }).strict();

export const ledgerSortFields = ['updateTime', 'createTime', 'name', 'contractNumber'] as const;
export const ledgerContractPageRequestSchema = z
  .object({
    /** null is the 'all' tab. */
    status: contractStatusSchema.nullable().default(null),
    q: z.string().trim().max(100).default(''),
    pageNum: z.number().int().min(1).max(1_000_000).default(1),
    pageSize: z
      .number()
      .refine((n): n is LedgerPageSize => (ledgerPageSizes as readonly number[]).includes(n), {
        message: `page size must be one of ${ledgerPageSizes.join(', ')}`,
      })
      .default(defaultLedgerPageSize),
    sort: z
      .object({ field: z.enum(ledgerSortFields), order: z.enum(['asc', 'desc']) })
      .strict()
      .default({ field: 'updateTime', order: 'desc' }),
  })
  .strict();
export type LedgerContractPageRequest = z.input<typeof ledgerContractPageRequestSchema>;
export type LedgerContractPageQuery = z.output<typeof ledgerContractPageRequestSchema>;

export const appInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'web']),
  /** The operating system's locale, e.g. "zh-CN"; the UI language follows it unless set. */
  systemLocale: z.string(),
  /** An organisation-share (external) environment, where the party detail link is hidden (spec). */
  organizationShare: z.boolean(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const channels = {
  'app.info': channel(empty, appInfoSchema),
  /**
   * The language the page shows (settings.language, else its system's: in the web edition the
   * browser's, not the host process's). The words the core writes for the UI (reminders, the
   * contract document's values) follow it; told at start, on every change and after a reconnection.
   */
  'app.pageLanguage': channel(z.object({ language: z.enum(languages) }).strict(), empty),
  'settings.get': channel(empty, settingsSchema),
  'settings.update': channel(
    z
      .object({ serverUrl: serverUrlSchema.optional(), language: z.enum(languages).nullable().optional(), archiveCacheMegabytes: archiveCacheMegabytesSchema.optional() })
      .strict(),
    settingsSchema,
  ),
  'session.get': channel(empty, sessionInfoSchema),
  'session.signIn': channel(
    z
      .object({
        serverUrl: serverUrlSchema,
        username: z.string().trim().min(1, 'please enter the user name').max(64),
        password: z.string().min(1, 'please enter the password').max(256),
      })
      .strict(),
    sessionInfoSchema,
  ),
  'session.signOut': channel(empty, sessionInfoSchema),
  'session.unlock': channel(z.object({ password: z.string().min(1, 'please enter the password').max(256) }).strict(), sessionInfoSchema),
  'ledger.contractStatistics': channel(empty, contractStatisticsSchema),
  'ledger.contractPage': channel(ledgerContractPageRequestSchema, pageSchema(contractSchema)),
  'sync.status': channel(empty, syncStatusSchema),
  'sync.now': channel(empty, syncStatusSchema),
  /** Edits a contract: the optimistic change and its outbox row in one transaction; sync sends it. */
  'contract.update': channel(mutations['contract.update'].args, z.object({ mutationId: z.string() })),
  /** The user has seen a rejected edit: it goes away. */
  'sync.dismiss': channel(mutationIdRequest, syncStatusSchema),
  /** Settles a conflict by keeping the server's version (the edit is dropped). */
  'sync.keepTheirs': channel(mutationIdRequest, syncStatusSchema),
  /** Settles a conflict by applying the same edit again on top of the server's version. */
  'sync.applyMineAgain': channel(mutationIdRequest, syncStatusSchema),

  // Contract drafting, detail and alteration on the generic form (issue 6; see drafting.ts).
  /** The offline catalogue: templates, contract types, numbering preview, number-editor flag. */
  'drafting.catalogue': channel(empty, draftingCatalogueSchema),
  /** Fetches the catalogue again when online (otherwise answers the kept one). */
  'drafting.refresh': channel(empty, draftingCatalogueSchema),
  /** A template's fields and clauses from the catalogue; NOT_FOUND when it was never fetched. */
  'drafting.template': channel(z.object({ id: z.string().min(1).max(64) }).strict(), templateDetailSchema),
  /** Party picker search: counterpart/list while online (its answers kept), the kept counterparties offline. */
  'drafting.searchParties': channel(partySearchRequestSchema, pageSchema(partySearchResultSchema)),
  /** A related-contracts field's candidates: the server's search while online, this device's contracts offline. */
  'drafting.relatedCandidates': channel(relatedCandidatesRequestSchema, relatedCandidatesSchema),
  /** The contract-number duplicate check: the server's while online, the replica's numbers as of the last sync offline. */
  'drafting.checkDuplicate': channel(duplicateCheckRequestSchema, duplicateCheckAnswerSchema),
  /** A contract's detail (form values included) from the replica. */
  'contract.detail': channel(z.object({ id: z.string().min(1).max(64) }).strict(), replicaContractDetailSchema),
  /** The contract's cooperation information from the replica: the other contracts with its counterparty, newest first. */
  'contract.cooperation': channel(z.object({ id: z.string().min(1).max(64) }).strict(), z.array(cooperativeInfoRowSchema)),
  /** Drafts a contract: replica row and outbox mutation in one transaction. */
  'contract.create': channel(createContractRequestSchema, createContractResponseSchema),
  /** Saves a drafted contract's form (name, type, number, values). */
  'contract.saveForm': channel(saveContractFormRequestSchema, z.object({ mutationId: z.string() })),
  /** Alters an approved contract: only fields whose alterEditStatus is 2 (spec 4). */
  'contract.alter': channel(alterContractRequestSchema, z.object({ mutationId: z.string() })),
  /** The contract's history: the server's alterations (kept for reading offline, with their fetch time) and this device's edits. */
  'contract.alterations': channel(z.object({ id: z.string().min(1).max(64) }).strict(), contractHistorySchema),
  /**
   * Submits, approves or rejects a contract (spec 4): refused at once unless the step is legal
   * from the contract's status on this device and the user may take it; queued like every edit.
   */
  'contract.approvalStep': channel(mutations['contract.approvalStep'].args, z.object({ mutationId: z.string() })),
  /** Templates of any status, from the server (online only; the catalogue keeps only approved ones). */
  'template.list': channel(templateListRequestSchema, pageSchema(templateSummarySchema)),
  /** A template as the server has it now (online only). */
  'template.detail': channel(z.object({ id: z.string().min(1).max(64) }).strict(), templateDetailSchema),
  /** Submits, approves or rejects a template on the server (online only); answers the template after the step. */
  'template.approvalStep': channel(templateApprovalStepRequestSchema, templateDetailSchema),
  /** Provisional numbers the server replaced on sync, until dismissed. */
  'contract.numberNotices': channel(empty, z.array(numberNoticeSchema)),
  'contract.dismissNumberNotice': channel(z.object({ contractId: z.string().min(1).max(64) }).strict(), z.array(numberNoticeSchema)),
  /** A server read the form needs while online (party detail, law firms, duplicate check…). */
  'online.call': channel(onlineCallRequestSchema, z.unknown()),

  // File upload through the core in ordered chunks, and opening a stored file (see files.ts).
  /** Checks format and size with the spec's messages before any byte moves. */
  'files.uploadBegin': channel(uploadBeginRequestSchema, uploadBeginResponseSchema),
  /** Appends the next chunk (base64, at most 256 KiB decoded) to the upload's temporary file. */
  'files.uploadChunk': channel(uploadChunkRequestSchema, uploadChunkResponseSchema),
  /**
   * Answers the form's upload value: an attachment or an archive's PDF is kept on this device and
   * queued (it reaches the server before the edit naming it, resumably); a template's document is sent now.
   */
  'files.uploadFinish': channel(uploadIdRequestSchema, uploadFinishResponseSchema),
  /** Abandons an upload and removes its temporary file. */
  'files.uploadCancel': channel(uploadIdRequestSchema, empty),
  /** Opens a file with the system's application (desktop only): the kept copy of a queued file, else the server's, downloaded. */
  'files.open': channel(fileOpenRequestSchema, empty),
  /** The files waiting to upload, and the device's bound they count against. */
  'files.queue': channel(empty, queuedFilesSchema),

  /** Users and departments for the people and department fields: the server's, or the kept ones offline (see directory.ts). */
  'directory.get': channel(empty, directorySchema),

  // Fulfilment on the contract page's performance tab (issue 13; see fulfilment.ts): read from the
  // replica, every edit queued as a sync mutation after the shared rules (src-shared/rules/fulfilment).
  'fulfilment.contract': channel(z.object({ contractId: z.string().min(1).max(64) }).strict(), contractPerformanceSchema),
  'fulfilment.finishForm': channel(finishFormRequestSchema, finishFormSchema),
  'fulfilment.finish': channel(mutations['performance.finishTask'].args, z.object({ mutationId: z.string() })),
  'fulfilment.finishBatch': channel(mutations['performance.finishTasks'].args, z.object({ mutationId: z.string() })),
  'fulfilment.restore': channel(mutations['performance.restoreTasks'].args, z.object({ mutationId: z.string() })),
  'fulfilment.deleteTask': channel(mutations['performance.deletePlanTask'].args, z.object({ mutationId: z.string() })),
  // One task by its id, a quick task too (it has no performance for the calls above to name).
  'fulfilment.restoreTask': channel(mutations['performance.restoreTask'].args, z.object({ mutationId: z.string() })),
  'fulfilment.deleteQuickTask': channel(mutations['performance.deleteTask'].args, z.object({ mutationId: z.string() })),
  'fulfilment.savePlan': channel(mutations['performance.savePlan'].args, z.object({ mutationId: z.string() })),
  /** Adds a plan to a contract offline: the core makes its ids; answers the plan's id. */
  'fulfilment.createPlan': channel(planCreateRequestSchema, z.object({ id: z.string(), mutationId: z.string() })),
  /** Removes a plan with its rows offline (none finished). */
  'fulfilment.deletePlan': channel(mutations['performance.deletePlan'].args, z.object({ mutationId: z.string() })),
  /** Predecessor tasks (spec 7 relate): the candidates from the replica, and relating or unrelating queued like every edit. */
  'fulfilment.relateCandidates': channel(z.object({ taskId: z.string().min(1).max(64) }).strict(), relateCandidatesSchema),
  'fulfilment.relate': channel(mutations['performance.relateTask'].args, z.object({ mutationId: z.string() })),
  'fulfilment.unrelate': channel(mutations['performance.unrelateTask'].args, z.object({ mutationId: z.string() })),
  // The performance dashboard from the replica, and its offline edits (see dashboard.ts).
  /** Task counts by state of the tasks due in the range (performances/statistics). */
  'performance.statistics': channel(dateRangeSchema, statisticsResponseSchema),
  /** The reminder board: each day of the range with its tasks (performances/task_scheduling). */
  'performance.board': channel(boardRequestSchema, boardResponseSchema),
  /** Queues a quick task; answers its id. */
  'performance.quickTask': channel(quickTaskRequestSchema, quickTaskResponseSchema),
  /** The user's reminder settings with their queued changes. */
  'performance.reminderSettings': channel(empty, reminderSettingsSchema),
  /** Queues a change of reminder settings of some task kinds; reminders follow it at once. */
  'performance.saveReminderSettings': channel(z.object({ settings: reminderSettingsPatchSchema }).strict(), z.object({ mutationId: z.string() })),
  // The ledger's scenes and its search, from the replica (issue 14; see scenes.ts).
  /** The user's scenes as they see them (queued edits included), in order, exactly one the default. */
  'scene.list': channel(empty, z.array(sceneViewSchema)),
  /** Makes a scene offline: refused at once as the server would refuse it, then queued. */
  'scene.create': channel(sceneCreateSchema, z.object({ id: z.string(), mutationId: z.string() })),
  'scene.update': channel(mutations['scene.update'].args, z.object({ mutationId: z.string() })),
  /** Deletes a custom scene (a system scene never). */
  'scene.delete': channel(mutations['scene.delete'].args, z.object({ mutationId: z.string() })),
  'scene.reorder': channel(mutations['scene.reorder'].args, z.object({ mutationId: z.string() })),
  'scene.setDefault': channel(mutations['scene.setDefault'].args, z.object({ mutationId: z.string() })),
  /** The ledger's field definitions: the server's when it answers (then kept), else the kept ones. */
  'ledger.fields': channel(empty, z.array(ledgerFieldSchema)),
  /** performances/search answered by the replica, with the server's rows, order and count. */
  'ledger.search': channel(ledgerSearchSchema, pageSchema(ledgerRowSchema)),
  /** The scene as shown, written to an Excel file in the core (progress: 'ledger.exportProgress'). */
  'ledger.export': channel(sceneExportRequestSchema, exportResponseSchema),
  'ledger.exportRead': channel(exportReadRequestSchema, exportReadResponseSchema),
  /** The audit events matching the audit screen's filters, paged from the server into an Excel file (progress: 'audit.exportProgress'); 'offline' at once while the server is away. */
  'audit.export': channel(auditExportRequestSchema, exportResponseSchema),
  'audit.exportRead': channel(exportReadRequestSchema, exportReadResponseSchema),
  // Contract archive, the local full-text search and the batch transfer (issue 14; see archive.ts).
  /** Contracts found by a word in their terms, form or archived PDF, best first, from the replica (works offline). */
  'search.fullText': channel(fullTextSearchRequestSchema, fullTextPageSchema),
  /** The contract's archived PDF: the kept one, else fetched and kept when online; null when it has none. */
  'archive.get': channel(archiveContractRequestSchema, archivedFileSchema.nullable()),
  /** Archives an approved contract with an uploaded PDF (online only); the PDF is kept and its text indexed. */
  'archive.confirm': channel(archiveConfirmRequestSchema, archivedFileSchema),
  /** A piece of a kept archived PDF (base64), for the viewer. */
  'archive.read': channel(archiveReadRequestSchema, archiveReadResponseSchema),
  /** How much of the archive cache is used. */
  'archive.cacheUsage': channel(empty, archiveCacheUsageSchema),
  // The contract's document (issue 29; see contract-document.ts): filled from the replica, read back in pieces.
  'contractDocument.produce': channel(documentProduceRequestSchema, documentProduceResponseSchema),
  'contractDocument.read': channel(documentReadRequestSchema, documentReadResponseSchema),
  /** A template's document as written (the kept copy, else fetched), read back in pieces: the template approval page shows it. */
  'contractDocument.template': channel(templateDocumentRequestSchema, documentProduceResponseSchema),
  /** Transfers contracts to another responsible person (online only; spec 5, 6). */
  'contract.transfer': channel(transferSchema, z.object({ count: z.number().int().nonnegative() })),
  /** A management screen's server read: the server's answer, or the kept one "as of" its time offline (see cached-reads.ts). */
  'cached.read': channel(cachedReadRequestSchema, cachedAnswerSchema(z.unknown())),

  /** Inner or outer counterparties, a page: the server's, or the kept ones searched here offline (see counterparties.ts). */
  'counterparties.list': channel(counterpartyListRequestSchema, counterpartyListAnswerSchema),
  /** A contract's score detail: the server's, or the kept one as of its time, with the user's queued scores on it (see scoring.ts). */
  'scoring.detail': channel(scoreDetailRequestSchema, scoreDetailAnswerSchema),
  /** Saves a contract's score on the server, or queues it to sync while it cannot (see scoring.ts). */
  'scoring.save': channel(scoreSaveRequestSchema, scoreSaveAnswerSchema),

  // The browser edition's reminders (see reminders.ts); the desktop shows native notifications instead, and its list stays empty.
  /** The reminders shown and not yet snoozed, opened or dismissed, newest first. */
  'reminders.list': channel(empty, appReminderListSchema),
  /** Remind me later (the desktop's choices); answers the list without it. */
  'reminders.snooze': channel(snoozeReminderRequestSchema, appReminderListSchema),
  /** Takes a reminder off the list (opened, or put aside); answers the list without it. */
  'reminders.dismiss': channel(reminderIdRequestSchema, appReminderListSchema),
} as const satisfies Record<string, ChannelDefinition>;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelRequest<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<Channels[C]['response']>;

/** Events main pushes to every window. */
export const events = {
  'session.changed': sessionInfoSchema,
  'sync.statusChanged': syncStatusSchema,
  /** Data in the replica changed: the renderer invalidates the matching cache tags. */
  'data.changed': z.object({ entities: z.array(z.enum(['contract', 'performanceTask', 'reminderSettings', 'draftingCatalogue', 'numberNotice', 'performancePlan', 'scene'])) }),
  /** An archived PDF's text extraction advanced (its pages read so far). */
  'archive.indexing': archiveIndexingEventSchema,
  'ledger.exportProgress': exportProgressSchema,
  'audit.exportProgress': exportProgressSchema,
  /** The browser edition's reminder list changed (a reminder fell due, was snoozed, opened or dismissed). */
  'reminders.changed': remindersChangedEventSchema,
  /** A file was queued, sent further, uploaded, refused or removed. */
  'files.queueChanged': queuedFilesSchema,
} as const satisfies Record<string, z.ZodType>;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: AppError };

/** What a host gives the renderer: the preload bridge in Electron, a WebSocket in the browser. */
export interface Bridge {
  invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>): Promise<IpcResult<ChannelResponse<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * The desktop shell's own call, not the core's: opens one of the app's routes (spec 2) in a new
   * window and leaves the caller where it is. Only Electron's preload has it; a browser opens tabs.
   */
  openWindow?(route: string): Promise<IpcResult<null>>;
}

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
}

export { bridgeGlobalName } from './bridge-global';
