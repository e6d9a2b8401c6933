import type { TFunction } from 'i18next';
import { formatMinorUnits, formatMoney, moneySchema } from '../../../src-shared/domain/money';
import type { TaskState } from '../../../src-shared/domain/enums';
import type { SyncProblem } from '../../../src-shared/ipc/channels';
import { formatDay } from '../../i18n/format';
import { stateLabels } from '../fulfilment/taskStateLabels';
import { performanceName } from '../fulfilment/performanceNames';

// How the sync panel names a problem's fields and shows their values, for every entity kind a
// mutation writes: each field group by its catalog label (a sheet column or a form field by its
// own name), each value as the screens show it — states and types by name, dates and amounts
// formatted, lists summarised, ids of other records (a contract's type, a scene's performance) by
// the names the replica knows.

type Entity = NonNullable<SyncProblem['entity']>;
type ProblemFields = Pick<SyncProblem, 'entity' | 'fieldNames'>;
type ProblemValues = ProblemFields & Pick<SyncProblem, 'valueNames'>;

/** The fields of each entity whose values are ids of other records. */
const idFields: Partial<Record<Entity, readonly string[]>> = { contract: ['contractTypeId'], scene: ['performanceId'] };

const formPrefix = 'form:';
const valuePrefix = 'value:';
/** At most this many names of a list are shown; the rest are counted. */
const namesShown = 3;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const labelIn = (labels: Record<string, string>, key: unknown): string | undefined => (typeof key === 'string' || typeof key === 'number' ? labels[key] : undefined);

/** What a problem is about: the row's name as shown locally, else the kind of row it is. */
export function problemSubject(t: TFunction, problem: Pick<SyncProblem, 'entity' | 'subject'>): string {
  return problem.subject ?? t('syncMerge.subjects', { returnObjects: true })[problem.entity ?? 'contract'];
}

/** A field group's label: the entity's catalog label, a form field's or a sheet column's name, a reminder kind's. */
export function fieldLabel(t: TFunction, problem: ProblemFields, field: string): string {
  const named = problem.fieldNames[field];
  if (named) return field.startsWith(valuePrefix) ? performanceName(t, field.slice(valuePrefix.length), named) : named;
  if (field.startsWith(formPrefix)) return t('syncMerge.formField', { id: field.slice(formPrefix.length) });
  if (field.startsWith(valuePrefix)) return t('syncMerge.sheetColumn');
  if (problem.entity === 'reminderSettings') return labelIn(t('reminders.kinds', { returnObjects: true }), field) ?? field;
  const labels: Record<string, string> = t('syncMerge.fields', { returnObjects: true })[problem.entity ?? 'contract'];
  return labels[field] ?? field;
}

/** Some names of a list, the rest counted ("Task state, Due date, +2 more"). */
function names(t: TFunction, items: readonly string[]): string {
  const shown = items.slice(0, namesShown);
  return [...shown, ...(items.length > shown.length ? [t('syncMerge.values.more', { count: items.length - shown.length })] : [])].join(', ');
}

/** A ledger field list (a scene's columns or filter fields) by the fields' names. */
function ledgerFields(t: TFunction, ids: unknown[]): string {
  const labels = t('scenes.fields', { returnObjects: true }) as Record<string, string>;
  return names(t, ids.map((id) => labelIn(labels, id) ?? String(id)));
}

/** A sheet cell or a form value: text as it is, a choice or a person by its name, a list joined. */
function cellText(value: unknown): string {
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (isRecord(value)) {
    const name = value.name ?? value.label ?? value.value;
    return name === undefined ? JSON.stringify(value) : cellText(name);
  }
  return String(value);
}

function scheduleText(t: TFunction, value: unknown, language: string): string {
  if (!isRecord(value) || typeof value.startDate !== 'string' || typeof value.endDate !== 'string') return cellText(value);
  const cycle = labelIn(t('fulfilment.cycles', { returnObjects: true }), value.cycle) ?? cellText(value.cycle);
  return t('syncMerge.values.schedule', { cycle, start: formatDay(value.startDate, language), end: formatDay(value.endDate, language) });
}

/** A reminder kind's settings: its time nodes and the time of day. */
function reminderText(t: TFunction, value: unknown): string {
  if (!isRecord(value) || !isRecord(value.timeNode)) return cellText(value);
  const { reminderTypes, otherTimes } = value.timeNode;
  const settings = t('dashboard.reminderSettings', { returnObjects: true });
  const nodes = [
    ...(Array.isArray(reminderTypes) ? reminderTypes.filter((type) => type !== 'other').map((type) => labelIn(settings.timeNodes, type) ?? String(type)) : []),
    ...(Array.isArray(otherTimes) ? otherTimes.map((time) => labelIn(settings.otherTimes, time) ?? String(time)) : []),
  ];
  return t('syncMerge.values.reminder', { nodes: names(t, nodes), time: cellText(value.reminderTime) });
}

function taskValue(t: TFunction, field: string, value: unknown, language: string): string | undefined {
  switch (field) {
    case 'state':
      return typeof value === 'number' && value in stateLabels ? t(`taskState.${stateLabels[value as TaskState]}`) : undefined;
    case 'type':
      return labelIn(t('scenes.taskTypes', { returnObjects: true }), value) ?? (value === 'custom' ? t('dashboard.quickTask.custom') : undefined);
    case 'amount':
    case 'completion':
      return typeof value === 'number' ? formatMinorUnits(value) : undefined;
    case 'expirationTime':
      return typeof value === 'string' ? formatDay(value, language) : undefined;
    case 'level':
      return t('syncMerge.values.level', { level: value });
    case 'tasks':
    case 'front':
    case 'frontRemoved':
      return typeof value === 'number' ? t('syncMerge.values.tasks', { count: value }) : undefined;
    default:
      return undefined;
  }
}

function entityValue(t: TFunction, entity: Entity, field: string, value: unknown, language: string): string | undefined {
  switch (entity) {
    case 'contract':
      if (field === 'status' && typeof value === 'number') return labelIn(t('contractStatus', { returnObjects: true }), value);
      if (field === 'signDate' && typeof value === 'string') return formatDay(value, language);
      if (field === 'amount') return moneySchema.safeParse(value).success ? formatMoney(moneySchema.parse(value)) : undefined;
      return undefined;
    case 'performanceTask':
      return taskValue(t, field, value, language);
    case 'performancePlan':
      if (field === 'schedule') return scheduleText(t, value, language);
      if ((field === 'rows' || field === 'removed') && typeof value === 'number') return t('syncMerge.values.rows', { count: value });
      return undefined;
    case 'scene':
      if ((field === 'titleIDs' || field === 'filterIDs') && Array.isArray(value)) return ledgerFields(t, value);
      if (field === 'filter' && Array.isArray(value)) return t('syncMerge.values.conditions', { count: value.length });
      if (field === 'sortField' && isRecord(value)) {
        const column = ledgerFields(t, [value.id]);
        return value.key === -1 ? t('syncMerge.values.sortDescending', { field: column }) : t('syncMerge.values.sortAscending', { field: column });
      }
      if (field === 'order' && Array.isArray(value)) return t('syncMerge.values.scenes', { count: value.length });
      return undefined;
    case 'reminderSettings':
      return reminderText(t, value);
  }
}

/** A field's value as the screens would show it; "--" when it has none. */
export function fieldValue(t: TFunction, problem: ProblemValues, field: string, value: unknown, language: string): string {
  if (value === null || value === undefined) return t('contractStatus.missing');
  // An id the replica knows a name for (a type chosen in a form field too) shows by that name.
  const named = typeof value === 'string' ? problem.valueNames[field]?.[value] : undefined;
  if (named) return named;
  if (typeof value === 'string' && problem.entity && idFields[problem.entity]?.includes(field)) return t('syncMerge.values.unknownName');
  if (typeof value === 'boolean') return value ? t('syncMerge.values.yes') : t('syncMerge.values.no');
  // A form's money value ({unit, amount} in hundredths) with its unit, as the form shows it.
  const money = moneySchema.safeParse(value);
  if (money.success) return formatMoney(money.data);
  return (problem.entity && entityValue(t, problem.entity, field, value, language)) ?? cellText(value);
}
