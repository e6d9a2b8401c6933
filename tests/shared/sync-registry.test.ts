import { describe, expect, it } from 'vitest';
import { reminderTaskKinds } from '../../src-shared/domain/enums';
import { entityFieldGroups, isFieldGroupOf, type VersionedEntity } from '../../src-shared/sync/field-versions';
import { fieldsOf, mutations, rowsOf, type MutationDefinition, type MutationName } from '../../src-shared/sync/mutations';

// The shared mutation registry (issue 12 item 4): every kind declares its entity and the field
// groups it changes, and every row it names is of that entity, or a part (a plan save's sheet
// rows) declared with its own entity and groups. The examples are keyed by
// mutation name, so a kind added without one does not type-check, and then this test judges it.

const id = '0192a000-0000-7000-8000-000000000001';
const other = '0192a000-0000-7000-8000-000000000002';
const third = '0192a000-0000-7000-8000-000000000003';
const fourth = '0192a000-0000-7000-8000-000000000004';

/** `parts`: the rows of another entity it rewrites, with their field groups (none unless given). */
const examples: Record<MutationName, { args: unknown; fields: string[]; parts?: Record<string, string[]> }> = {
  'contract.update': { args: { id, patch: { name: 'n', amount: null, formValues: { subject: 's' } } }, fields: ['name', 'amount', 'form:subject'] },
  'contract.approvalStep': { args: { id, action: 'submit' }, fields: ['status'] },
  'contract.create': { args: { id, name: 'n', templateId: null, contractTypeId: null, contractNumber: null, provisionalNumber: null, formValues: {} }, fields: [] },
  'contract.alter': { args: { id, formValues: { subject: 's' }, reason: 'r' }, fields: ['form:subject'] },
  'contract.archive': { args: { id, fileId: other, fileName: 'signed.pdf' }, fields: ['status'] },
  'performance.finishTask': { args: { id }, fields: ['state', 'completion'] },
  'performance.finishTasks': { args: { performanceId: other, planIDList: [id, id] }, fields: ['state', 'completion'] },
  'performance.restoreTasks': { args: { performanceId: other, planIDList: [id] }, fields: ['state', 'completion'] },
  'performance.restoreTask': { args: { id }, fields: ['state', 'completion'] },
  'performance.deletePlanTask': { args: { performanceId: other, planID: id }, fields: ['state'] },
  'performance.deleteTask': { args: { id }, fields: ['state'] },
  'performance.savePlan': {
    args: { performanceId: other, planId: id, plan: { contractID: other, conditionType: 0, rows: [{ id: other, name: 'n', payableAmount: null, receivableAmount: null, values: { site: 's' } }, { id: third }, { name: 'new' }] }, removes: [fourth] },
    fields: ['schedule'],
    // A removed row is based on its version too: removing it is a step of its state.
    parts: { [`performanceTask:${other}`]: ['name', 'amount', 'value:site'], [`performanceTask:${fourth}`]: ['state'] },
  },
  'performance.createPlan': {
    args: {
      planId: id,
      performanceId: other,
      performance: { name: 'Payments', type: 'payment', columns: [], fields: [] },
      plan: { contractID: other, conditionType: 0, scheduleTaskIds: [], rows: [{ id: third, name: 'Invoice' }] },
    },
    fields: [],
  },
  'performance.deletePlan': { args: { performanceId: other, planId: id, taskIds: [third] }, fields: [], parts: { [`performanceTask:${third}`]: ['state'] } },
  'performance.relateTask': { args: { id, frontTaskIDList: [other, third] }, fields: ['front'] },
  'performance.unrelateTask': { args: { id, frontTaskID: other }, fields: ['front'] },
  'contract.score': { args: { id, comment: 'on time', resultItems: [{ id: other, children: [{ id: third, actualScore: 8 }] }] }, fields: [] },
  'performance.quickTask': { args: { id, payload: { name: 'n', type: 'custom', fieldList: [] } }, fields: [] },
  'performance.reminderSettings': { args: { settings: { [reminderTaskKinds[0]]: {} } }, fields: [reminderTaskKinds[0]] },
  'scene.create': { args: { id, name: 'n' }, fields: [] },
  'scene.update': { args: { id, patch: { name: 'n', filter: [] } }, fields: ['name', 'filter'] },
  'scene.delete': { args: { id }, fields: [] },
  'scene.reorder': { args: { ids: [id, other] }, fields: ['sortOrder'] },
  'scene.setDefault': { args: { id }, fields: ['isDefault'] },
};

describe('the mutation registry', () => {
  it.each(Object.keys(mutations) as MutationName[])('%s declares its entity, its field groups and rows of that entity only', (name) => {
    const definition = mutations[name] as MutationDefinition;
    const example = examples[name];
    const fields = definition.fields(example.args);
    expect(fields).toEqual(example.fields);
    const parts = definition.parts?.(example.args) ?? [];
    expect(Object.fromEntries(parts.map((part) => [part.key, part.fields]))).toEqual(example.parts ?? {});
    for (const part of parts) {
      expect(part.key.split(':')[0]).toBe(part.entity);
      for (const group of part.fields) expect(isFieldGroupOf(part.entity, group), `${group} of ${part.entity}`).toBe(true);
      // A part is touched: its base version is compared, and the server judges it by its own groups.
      expect(fieldsOf(name, example.args)(part.key)).toEqual(part.fields);
    }
    const { touches, creates, moves, removes } = rowsOf(name, example.args);
    const partKeys = new Set<string>([...parts.map((part) => part.key), ...(definition.createsParts?.(example.args) ?? [])]);
    for (const part of parts) expect(touches).toContain(part.key);
    // Only a part may be gone already when it applies, and only one that removes its row.
    expect(removes).toEqual(parts.filter((part) => part.removes).map((part) => part.key));
    for (const key of [...touches, ...creates, ...moves].filter((key) => !partKeys.has(key))) expect(key.split(':')[0]).toBe(definition.entity);
    for (const key of touches.filter((key) => !partKeys.has(key))) expect(fieldsOf(name, example.args)(key)).toEqual(fields);
    if (definition.entity === 'reminderSettings') {
      for (const kind of fields) expect(reminderTaskKinds).toContain(kind);
      expect(touches).toEqual([]);
      return;
    }
    for (const group of fields) expect(isFieldGroupOf(definition.entity, group), `${group} of ${definition.entity}`).toBe(true);
  });

  it('has an example for every kind, and every versioned entity is written by some kind', () => {
    expect(Object.keys(examples).sort()).toEqual(Object.keys(mutations).sort());
    const written = new Set(Object.values(mutations).map((m) => (m as MutationDefinition).entity));
    for (const entity of Object.keys(entityFieldGroups) as VersionedEntity[]) expect(written).toContain(entity);
  });

  it("declares a plan save's schedule changed only when it differs from the one the save was based on", () => {
    const schedule = { cycle: 'month', startDate: '2027-01-01', endDate: '2027-03-31', amount: { amount: 300, unit: 'CNY' }, direction: 'receivable', name: 'Rent' };
    const save = (plan: object, baseCondition?: object) => mutations['performance.savePlan'].fields(mutations['performance.savePlan'].args.parse({ performanceId: other, planId: id, plan: { contractID: other, rows: [], ...plan }, baseCondition }));
    expect(save({ conditionType: 0 }, { conditionType: 0, schedule: null })).toEqual([]);
    expect(save({ conditionType: 2, schedule }, { conditionType: 2, schedule: { ...schedule } })).toEqual([]);
    expect(save({ conditionType: 1 }, { conditionType: 0, schedule: null })).toEqual(['schedule']);
    expect(save({ conditionType: 2, schedule: { ...schedule, endDate: '2027-06-30' } }, { conditionType: 2, schedule })).toEqual(['schedule']);
    // Queued by an earlier version, without its base: it sets the schedule, as it did then.
    expect(save({ conditionType: 0 })).toEqual(['schedule']);
  });

  it('tells field groups apart from other names, keyed groups included', () => {
    expect(isFieldGroupOf('contract', 'form:subject')).toBe(true);
    expect(isFieldGroupOf('contract', 'form:')).toBe(false);
    expect(isFieldGroupOf('performanceTask', 'value:amount')).toBe(true);
    expect(isFieldGroupOf('scene', 'form:subject')).toBe(false);
    expect(isFieldGroupOf('performancePlan', 'name')).toBe(false);
  });
});
