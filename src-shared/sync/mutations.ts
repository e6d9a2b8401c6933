import { z } from 'zod';
import { AppFailure, reason, type Reason } from '../errors';
import { contractIdSchema, idSchema } from '../domain/contract';
import { formValuesSchema } from '../domain/contract-forms';
import { isoDateSchema } from '../domain/dates';
import { sceneCreateSchema } from '../domain/ledger';
import { moneySchema } from '../domain/money';
import { finishPayload, finishTaskSchema, periodicScheduleSchema, planCreateSchema, planPerformanceShownSchema, type PlanSave, planSaveSchema, quickTaskPayloadSchema, restorePayloadSchema, type TaskUpdate } from '../domain/performance';
import { relateBodySchema, unrelateQuerySchema } from '../api/performance';
import { scoreSubmitSchema } from '../api/scoring';
import { reminderSettingsPatchSchema } from '../domain/reminders';
import { reminderTaskKinds, type ReminderTaskKind } from '../domain/enums';
import { byFieldGroup, valueFieldGroup, type FieldGroup, type VersionedEntity } from './field-versions';
import { approvalCommentMax, approvalSteps } from '../rules/contract-status';
import { sameCondition } from '../rules/fulfilment';

// Every write the UI makes is a named, versioned mutation (architecture, sync rule 1). The client
// applies it optimistically and queues it; the server applies it exactly once. Each mutation
// names the rows it touches, so the server can check their base versions.

/** A row a mutation touches, as "entity:id" (e.g. "contract:0192…"). */
export type RowKey = `${string}:${string}`;
export const rowKey = (entity: string, id: string): RowKey => `${entity}:${id}`;

/**
 * What a mutation may write: an entity with versions per row and field group, or the reminder
 * settings, kept by the last writer per task kind (they have no version to compare).
 */
export type MutableEntity = VersionedEntity | 'reminderSettings';

/** Every entity a mutation may write: the kinds of row a sync problem can be about. */
export const mutableEntities = ['contract', 'performanceTask', 'performancePlan', 'scene', 'reminderSettings'] as const satisfies readonly MutableEntity[];

/** The groups an edit of entity E may change: field groups, or for reminder settings the task kinds. */
export type ChangedGroup<E extends MutableEntity> = E extends VersionedEntity ? FieldGroup<E> : ReminderTaskKind;

/** How the server refuses a mutation touching a row it does not have; the desktop refuses one its replica lacks the same way. */
export const missingRowMessage = (key: RowKey) => `${key} does not exist`;

/** A touched row that is not there: refused alike by the server and, at once, by the core. */
export const missingRow = (key: RowKey) => new AppFailure('not_found', missingRowMessage(key), undefined, reason('rowMissing', { entity: key.slice(0, key.indexOf(':')) }));

const contractPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    contractNumber: z.string().trim().max(64).nullable(),
    signDate: isoDateSchema.nullable(),
    amount: moneySchema.nullable(),
    contractTypeId: idSchema.nullable(),
    /** Form values keyed by field id; the ones given replace the kept ones. */
    formValues: formValuesSchema,
  })
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'the patch changes nothing');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Versions before the approval steps set a contract's status in contract.update's patch. Such an
 * edit, still queued on a device when it upgrades (or pushed by a device not upgraded yet), is
 * refused with this message rather than applied: it may carry other fields with it, and the step
 * it meant is the user's to take again, on the contract page.
 */
export const statusByHandMessage = "a contract's status is no longer set by editing it: submit, approve or reject it from the contract page";

export interface MutationDefinition<A extends z.ZodType = z.ZodType, E extends MutableEntity = MutableEntity> {
  args: A;
  /** The entity it writes: every row it touches, creates or moves is one of its rows. */
  entity: E;
  /**
   * The field groups of those rows the edit changes (shared names, src-shared/sync/field-versions.ts).
   * Where a touched row moved on the server since the edit's base, it conflicts only if one of its
   * changed groups moved too (sync rule 6); a state step names the groups of the state it moves,
   * which the server checks when it applies it. Required, so that no kind skips the rule.
   */
  fields(args: z.output<A>): ChangedGroup<NoInfer<E>>[];
  /** The rows whose base versions the server compares before applying. */
  touches(args: z.output<A>): RowKey[];
  /**
   * Rows of another entity the mutation rewrites as parts of its own (a plan save's sheet rows),
   * each with the field groups it changes there: touched like its own rows (base versions
   * compared, a missing one refused, unless the part removes it) and judged per field by their own groups.
   */
  parts?(args: z.output<A>): PartEdit[];
  /**
   * Rows the mutation brings into being (a draft with a client-made id): they have no base
   * version to compare, the client shows them at once, and the result reports their versions.
   */
  creates?(args: z.output<A>): RowKey[];
  /**
   * Rows of another entity the mutation brings into being as parts of its own (a new plan's sheet
   * rows, with client-made ids): created like its own rows, with no base version to compare.
   */
  createsParts?(args: z.output<A>): RowKey[];
  /**
   * Rows the mutation moves through a state machine (an approval step): locked and checked for
   * access like touched rows, but with no base version to compare, because the server checks
   * their state itself when it applies the step (architecture, sync rule 6).
   */
  moves?(args: z.output<A>): RowKey[];
  /**
   * Why args of a shape an earlier version of the app made, which the schema no longer accepts,
   * are refused: the message a stored or pushed mutation of that shape gets instead of a schema error.
   */
  retired?(args: unknown): Retired | undefined;
}

/**
 * A row of another entity a mutation rewrites as a part of its own, and the field groups it
 * changes there. A part that `removes` its row is done when the row is gone already (removed
 * elsewhere meanwhile): nothing of the edit is lost, so the rest of the edit applies.
 */
export type PartEdit = { [K in VersionedEntity]: { key: RowKey; entity: K; fields: FieldGroup<K>[]; removes?: true } }[VersionedEntity];

const mutation = <A extends z.ZodType, E extends MutableEntity>(definition: MutationDefinition<A, E>) => definition;

/** The contract field groups a patch or form values change. */
const contractGroups = (fields: Record<string, unknown>) => Object.keys(byFieldGroup(fields)) as FieldGroup<'contract'>[];

/** What finishing or restoring a task changes: its state and its completion values. */
const taskStep = (): FieldGroup<'performanceTask'>[] => ['state', 'completion'];

/** A sheet row's cells by the task field groups they write (payable and receivable are one amount). */
const sheetCellGroups: Record<Exclude<keyof TaskUpdate, 'values'>, FieldGroup<'performanceTask'>> = {
  name: 'name',
  expirationTime: 'expirationTime',
  payableAmount: 'amount',
  receivableAmount: 'amount',
  leaderUserID: 'leader',
  level: 'level',
  type: 'type',
};

/**
 * The saved rows of a sheet a plan save changes, each with the groups of the cells it sends: a
 * saved row lists only its changed cells (a row sent by its id alone is kept as it is), and its
 * values only the changed columns, which the server merges into the row's.
 */
function sheetRowEdits(plan: PlanSave): PartEdit[] {
  return plan.rows.flatMap(({ id, values, ...cells }): PartEdit[] => {
    const fields = [
      ...new Set(Object.keys(cells).map((cell) => sheetCellGroups[cell as keyof typeof sheetCellGroups])),
      ...Object.keys(values ?? {}).map((column) => valueFieldGroup(column) as FieldGroup<'performanceTask'>),
    ];
    return id === undefined || fields.length === 0 ? [] : [{ key: rowKey('performanceTask', id), entity: 'performanceTask', fields }];
  });
}

/** A plan's condition type and schedule: the field group "schedule" (a periodic plan's rows are generated from it). */
const planConditionSchema = z.object({ conditionType: planSaveSchema.shape.conditionType, schedule: periodicScheduleSchema.nullable() }).strict();

/** Whether a plan save changes the plan's condition type or schedule from those it was based on (unknown base: it does). */
export function changesCondition({ plan, baseCondition }: { plan: PlanSave; baseCondition?: z.output<typeof planConditionSchema> | undefined }): boolean {
  return !baseCondition || !sameCondition({ conditionType: plan.conditionType, schedule: plan.schedule ?? null }, baseCondition);
}

export const mutations = {
  /** Edits fields of a contract (the first mutation; the form issue adds drafting and alteration). */
  'contract.update': mutation({
    entity: 'contract',
    fields: (args) => contractGroups(args.patch),
    args: z.object({ id: contractIdSchema, patch: contractPatchSchema }).strict(),
    touches: (args) => [rowKey('contract', args.id)],
    retired: (args) => (isObject(args) && isObject(args.patch) && 'status' in args.patch ? { message: statusByHandMessage, reason: reason('statusByHand') } : undefined),
  }),
  /**
   * An approval step of a contract (spec 4): submit 1|3→2, approve 2→4, reject 2→3. The server
   * decides it by the contract's status when it applies it, not by the version it was based on:
   * of two approvers deciding one contract offline, the second finds it decided.
   */
  'contract.approvalStep': mutation({
    entity: 'contract',
    fields: () => ['status'],
    args: z
      .object({
        id: contractIdSchema,
        action: z.enum(approvalSteps),
        comment: z.string().trim().max(approvalCommentMax).optional(),
        /** When the user took the step on the device (the trail keeps it beside the server's apply time). */
        takenAt: z.string().datetime().optional(),
      })
      .strict(),
    touches: () => [],
    moves: (args) => [rowKey('contract', args.id)],
  }),
  /**
   * Drafts a contract with a client-made id. A null number asks the server to allocate one from
   * the numbering rules; `provisionalNumber` is what the client showed meanwhile, and the result
   * says whether the server confirmed or replaced it.
   */
  'contract.create': mutation({
    entity: 'contract',
    fields: () => [],
    args: z
      .object({
        id: contractIdSchema,
        name: z.string().max(200),
        templateId: idSchema.nullable(),
        contractTypeId: idSchema.nullable(),
        contractNumber: z.string().trim().min(1).max(100).nullable(),
        provisionalNumber: z.string().max(100).nullable(),
        formValues: formValuesSchema,
      })
      .strict(),
    touches: () => [],
    creates: (args) => [rowKey('contract', args.id)],
  }),
  /**
   * Archives an approved contract with its signed PDF (spec 2), taken offline too (issue 30): the
   * PDF goes to the server as a queued file of this id before the step is pushed, and the server
   * decides the step by the contract's status and the file it holds when it applies it.
   */
  'contract.archive': mutation({
    entity: 'contract',
    fields: () => ['status'],
    args: z
      .object({
        id: contractIdSchema,
        fileId: z.string().uuid(),
        fileName: z.string().trim().min(1).max(255),
        takenAt: z.string().datetime().optional(),
      })
      .strict(),
    touches: () => [],
    moves: (args) => [rowKey('contract', args.id)],
  }),
  /**
   * Scores a contract's outer counterparty (spec 2 "Counterparty scoring dialog"), taken offline
   * too (issue 30): the user's own assessment, the REST body plus the contract's id. It changes no
   * synced row: the server checks the contract, its party, the criteria and the score's version
   * when it applies it, as its REST call does, so a score changed elsewhere meanwhile is refused.
   */
  'contract.score': mutation({
    entity: 'contract',
    fields: () => [],
    args: scoreSubmitSchema.extend({ id: contractIdSchema }).strict(),
    touches: () => [],
  }),
  /** Alters an approved contract (spec 4): only fields with alterEditStatus 2 change. */
  'contract.alter': mutation({
    entity: 'contract',
    fields: (args) => contractGroups({ formValues: args.formValues }),
    args: z
      .object({
        id: contractIdSchema,
        formValues: formValuesSchema.refine((v) => Object.keys(v).length > 0, 'change at least one value'),
        reason: z.string().trim().min(1, 'please enter the reason').max(2000),
      })
      .strict(),
    touches: (args) => [rowKey('contract', args.id)],
  }),
  // Fulfilment (issue 13): each is the REST call's body plus the ids its path names. A task's
  // state is decided by the server when it applies the step (finish, restore, delete), not by the
  // version the client saw, as an approval step is: of two users finishing one task offline, the
  // second finds it finished.
  /** Finishes one task (PUT performances/task/{id}/finish): its completion values, the amount in major units (stored × 100). */
  'performance.finishTask': mutation({
    entity: 'performanceTask',
    fields: taskStep,
    args: finishTaskSchema.extend({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performanceTask', args.id)],
  }),
  /** Finishes tasks of one performance (PUT performances/{id}/finish), earlier rows first. */
  'performance.finishTasks': mutation({
    entity: 'performanceTask',
    fields: taskStep,
    args: finishPayload({ performanceId: idSchema }),
    touches: () => [],
    moves: (args) => [...new Set(args.planIDList)].map((id) => rowKey('performanceTask', id)),
  }),
  /** Restores finished tasks of one performance (PUT performances/{id}/restore): also a single restore (spec 4). */
  'performance.restoreTasks': mutation({
    entity: 'performanceTask',
    fields: taskStep,
    args: restorePayloadSchema.extend({ performanceId: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [...new Set(args.planIDList)].map((id) => rowKey('performanceTask', id)),
  }),
  /**
   * Restores one finished task by its id (PUT performances/task/{id}/restore): any task, a quick
   * task too, which has no performance for restoreTasks to name.
   */
  'performance.restoreTask': mutation({
    entity: 'performanceTask',
    fields: taskStep,
    args: z.object({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performanceTask', args.id)],
  }),
  /** Deletes one unfinished task by its id (DELETE performances/task/{id}): a quick task, which belongs to no plan. */
  'performance.deleteTask': mutation({
    entity: 'performanceTask',
    fields: () => ['state'],
    args: z.object({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performanceTask', args.id)],
  }),
  /** Deletes an unfinished row of a plan (DELETE performances/{id}/plan_task). */
  'performance.deletePlanTask': mutation({
    entity: 'performanceTask',
    fields: () => ['state'],
    args: z.object({ performanceId: idSchema, planID: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performanceTask', args.planID)],
  }),
  /**
   * Saves the rows of an existing plan (PUT performances/{id}/plan), based on the plan's version
   * as If-Match is, and on each changed sheet row's version: edits of different rows, or of
   * different cells of one row, merge; the same cell changed on both sides conflicts. Rows added
   * after the plan's base version were not shown to the user: the save keeps them.
   */
  'performance.savePlan': mutation({
    entity: 'performancePlan',
    fields: (args) => (changesCondition(args) ? ['schedule'] : []),
    args: z
      .object({
        performanceId: idSchema,
        planId: idSchema,
        plan: planSaveSchema,
        /**
         * The plan's condition type and schedule as the device showed them when the user edited
         * the sheet. A save that leaves them so declares no schedule change and writes none, so
         * that a schedule changed elsewhere merges with it; without it (a save queued by an
         * earlier version) the save sets the schedule, as it did then.
         */
        baseCondition: planConditionSchema.optional(),
        /**
         * The saved rows the user removed from the sheet, each based on the version the device
         * showed: removing a row changed elsewhere since is a conflict, not a silent loss of that
         * change. (A save queued by an earlier version names none: its rows left out just go.)
         */
        removes: z.array(idSchema).max(1000).optional(),
      })
      .strict(),
    touches: (args) => [rowKey('performancePlan', args.planId)],
    parts: (args) => [
      ...sheetRowEdits(args.plan),
      ...(args.removes ?? []).map((id): PartEdit => ({ key: rowKey('performanceTask', id), entity: 'performanceTask', fields: ['state'], removes: true })),
    ],
  }),
  /**
   * Relates a task to predecessors, earlier tasks of its contract (POST performances/task/{id}/relate).
   * Like a state step it is decided by the server when it applies it (the shared predecessor
   * rules, on the relations as they are then), not by the version the client saw: relations made
   * on two devices both hold.
   */
  'performance.relateTask': mutation({
    entity: 'performanceTask',
    fields: () => ['front'],
    args: relateBodySchema.extend({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performanceTask', args.id)],
  }),
  /** Removes a task's relation to one predecessor (DELETE performances/task/{id}/relate). */
  'performance.unrelateTask': mutation({
    entity: 'performanceTask',
    fields: () => ['front'],
    args: unrelateQuerySchema.extend({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performanceTask', args.id)],
  }),
  /**
   * Creates a quick task (spec 3 "Quick task payload") with a client-made id, so the task the
   * dashboard shows while offline is the one the server makes. It touches no synced row: the
   * server checks the related contract and the leader when it applies it, as its REST call does.
   */
  'performance.quickTask': mutation({
    entity: 'performanceTask',
    fields: () => [],
    args: z.object({ id: z.string().uuid(), payload: quickTaskPayloadSchema }).strict(),
    touches: () => [],
  }),
  /**
   * Adds a plan to a contract under a performance (PUT performances/{id}/plan when the contract has
   * none), with a client-made plan id and task ids: the plan and tasks the device shows at once
   * are the ones the server makes, and the pull replaces them row for row. The server refuses it
   * when the contract has a plan under the performance already (made elsewhere meanwhile), so that
   * it never becomes two plans or a silent merge; a replay is exactly once by the mutation's id.
   */
  'performance.createPlan': mutation({
    entity: 'performancePlan',
    fields: () => [],
    args: z.object({ planId: z.string().uuid(), performanceId: idSchema, performance: planPerformanceShownSchema, plan: planCreateSchema }).strict(),
    touches: () => [],
    creates: (args) => [rowKey('performancePlan', args.planId)],
    createsParts: (args) => [...args.plan.scheduleTaskIds, ...args.plan.rows.map((row) => row.id)].map((id) => rowKey('performanceTask', id)),
  }),
  /**
   * Removes a contract's plan with its rows (DELETE performances/{id}/plan). The server checks the
   * plan's state when it applies it (no finished row); each row the user saw is based on the
   * version shown, so a row changed elsewhere since is a conflict, and a row added elsewhere (not
   * shown to the user) refuses the removal rather than going unseen.
   */
  'performance.deletePlan': mutation({
    entity: 'performancePlan',
    fields: () => [],
    args: z.object({ performanceId: idSchema, planId: idSchema, taskIds: z.array(idSchema).max(1000) }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('performancePlan', args.planId)],
    parts: (args) => args.taskIds.map((id): PartEdit => ({ key: rowKey('performanceTask', id), entity: 'performanceTask', fields: ['state'], removes: true })),
  }),
  /** Saves the user's reminder settings of the kinds given; each kind is kept by the last writer. */
  'performance.reminderSettings': mutation({
    entity: 'reminderSettings',
    fields: (args) => reminderTaskKinds.filter((kind) => args.settings[kind] !== undefined),
    args: z.object({ settings: reminderSettingsPatchSchema }).strict(),
    touches: () => [],
  }),
  // Ledger scenes (issue 14): an edit touches its scene and merges per field (sync rule 6): it
  // conflicts only where the same field changed since its base. Deleting, reordering and the
  // default move their scenes instead (the last writer wins; the server checks what is left).
  /** Makes a scene with a client-made id. */
  'scene.create': mutation({
    entity: 'scene',
    fields: () => [],
    args: sceneCreateSchema.extend({ id: contractIdSchema }).strict(),
    touches: () => [],
    creates: (args) => [rowKey('scene', args.id)],
  }),
  /** Changes a scene's name, performance, filter fields, preset filters, columns or kept sort. */
  'scene.update': mutation({
    entity: 'scene',
    fields: (args) => Object.keys(args.patch) as FieldGroup<'scene'>[],
    args: z
      .object({
        id: idSchema,
        patch: z
          .object({
            name: sceneCreateSchema.shape.name,
            titleIDs: sceneCreateSchema.shape.titleIDs.unwrap(),
            filterIDs: sceneCreateSchema.shape.filterIDs.unwrap(),
            filter: sceneCreateSchema.shape.filter.unwrap(),
            sortField: sceneCreateSchema.shape.sortField.unwrap(),
            performanceId: sceneCreateSchema.shape.performanceId.unwrap(),
          })
          .partial()
          .strict()
          .refine((patch) => Object.keys(patch).length > 0, 'the patch changes nothing'),
      })
      .strict(),
    touches: (args) => [rowKey('scene', args.id)],
  }),
  /** Deletes a custom scene (never a system one). */
  'scene.delete': mutation({
    entity: 'scene',
    fields: () => [],
    args: z.object({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('scene', args.id)],
  }),
  /** The manage dialog's drag and drop: the scenes in their new order. */
  'scene.reorder': mutation({
    entity: 'scene',
    fields: () => ['sortOrder'],
    args: z.object({ ids: z.array(idSchema).min(1).max(100) }).strict(),
    touches: () => [],
    moves: (args) => args.ids.map((id) => rowKey('scene', id)),
  }),
  /** Makes a scene the one the ledger opens on. */
  'scene.setDefault': mutation({
    entity: 'scene',
    fields: () => ['isDefault'],
    args: z.object({ id: idSchema }).strict(),
    touches: () => [],
    moves: (args) => [rowKey('scene', args.id)],
  }),
} as const satisfies Record<string, MutationDefinition<z.ZodType, MutableEntity>>;

export type MutationName = keyof typeof mutations;
export type MutationArgs<N extends MutationName> = z.output<(typeof mutations)[N]['args']>;

/**
 * The rows a mutation touches (base versions checked; its parts included), those it creates and
 * those it moves (state checked); `removes`: the touched rows it removes, which may be gone already.
 */
export function rowsOf(name: MutationName, args: unknown): { touches: RowKey[]; creates: RowKey[]; moves: RowKey[]; removes: RowKey[] } {
  const definition = mutations[name] as MutationDefinition<z.ZodType>;
  const parts = definition.parts?.(args) ?? [];
  return {
    touches: [...definition.touches(args), ...parts.map((part) => part.key)],
    creates: [...(definition.creates?.(args) ?? []), ...(definition.createsParts?.(args) ?? [])],
    moves: definition.moves?.(args) ?? [],
    removes: parts.filter((part) => part.removes).map((part) => part.key),
  };
}

/**
 * The field groups a mutation declares it changes, by row (sync rule 6: a moved row conflicts on
 * these only): a part's own groups, else the mutation's.
 */
export function fieldsOf(name: MutationName, args: unknown): (key: RowKey) => string[] {
  const definition = mutations[name] as MutationDefinition;
  const own = definition.fields(args);
  const parts = new Map((definition.parts?.(args) ?? []).map((part) => [part.key, part.fields as string[]]));
  return (key) => parts.get(key) ?? own;
}

/** Why a shape an earlier version wrote is refused now: the wire's message and the user's reason. */
export interface Retired {
  message: string;
  reason: Reason;
}

/** Why `args`, of a shape an earlier version made, are refused; undefined when they are not of such a shape. */
export function retiredReason(name: MutationName, args: unknown): Retired | undefined {
  return (mutations[name] as MutationDefinition<z.ZodType>).retired?.(args);
}

export function isMutationName(name: unknown): name is MutationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(mutations, name);
}

/** What a contract mutation's args say about the edit: an update's patch, a draft's or an alteration's form values (and its reason), an approval step's action and comment. */
export const contractEditArgsSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  patch: z.record(z.string(), z.unknown()).optional(),
  formValues: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().optional(),
  action: z.enum(approvalSteps).optional(),
  comment: z.string().optional(),
});
