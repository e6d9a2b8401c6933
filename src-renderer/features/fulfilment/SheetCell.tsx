import { HTMLSelect, InputGroup } from '@blueprintjs/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PartyType, ScheduleConditionType, type FieldType } from '../../../src-shared/domain/enums';
import type { SheetColumn } from '../../../src-shared/domain/performance';
import type { FormField } from '../../../src-shared/form/field-config';
import { formatMoney } from '../../../src-shared/domain/money';
import { cellFromContract, defaultReferenceNodes, referenceNodesOf, sheetTextMaxLength, type CellProblem, type PerformanceTime } from '../../../src-shared/rules/sheet-cells';
import { scheduleCycles, type ScheduleCycle } from '../../../src-shared/rules/schedule';
import { valueRangeText } from '../../../src-shared/rules/value-range';
import { fieldComponents, type FieldComponent } from '../contract-form';
import { formatDay } from '../../i18n/format';
import { performanceName } from './performanceNames';

// One cell of the sheet editor (spec 3 "Performance sheet", spec 5): each column type edited by
// the generic form's field of that kind (people from the directory, choices from the column's
// options, the app's date input, money with its unit, party pickers over the kept counterparties),
// the performance time by its own editor; placeholders 'please fill in X', money 'please enter
// payment amount'; the cell's problem by the shared rules under it.

/** The generic form's field type that edits each column type (the performance time has its own editor). */
const fieldTypeOf: Record<Exclude<SheetColumn['type'], 'performanceTime'>, FieldType> = {
  text: 'text',
  textarea: 'textarea',
  date: 'date',
  money: 'money',
  number: 'number',
  people: 'people',
  select: 'select',
  multiselect: 'multiselect',
  outerParty: 'inputSelectV2',
  innerParty: 'inputSelectV2',
};

/** The column as a form field: its name in the user's language, its placeholder, its options and limits. */
export function columnField(t: TFunction, column: SheetColumn): FormField {
  const name = performanceName(t, column.id, column.name);
  const type = column.type === 'performanceTime' ? 'custom' : fieldTypeOf[column.type];
  return {
    id: `sheet-${column.id}`,
    name,
    type,
    required: column.isRequired,
    placeholder: column.type === 'money' ? t('form.enterPaymentAmount') : t('form.pleaseFillIn', { name }),
    ...(column.config?.options && { options: column.config.options }),
    ...((column.type === 'text' || column.type === 'textarea') && { maxlength: sheetTextMaxLength }),
    ...(column.type === 'people' && { multiple: column.config?.singleSelect !== true }),
    ...(column.type === 'outerParty' && { partyType: PartyType.Outer }),
    ...(column.type === 'innerParty' && { partyType: PartyType.Inner }),
  };
}

/** The message of a cell's problem, in the spec's words with the column's name. */
export function problemText(t: TFunction, column: SheetColumn, problem: CellProblem): string {
  const name = performanceName(t, column.id, column.name);
  const rule = column.config?.valueRange;
  switch (problem) {
    case 'enter':
      return t('form.pleaseEnter', { name });
    case 'select':
      return t('form.pleaseSelect', { name });
    case 'paymentAmount':
      return t('form.enterPaymentAmount');
    case 'valueRange':
      return rule ? t('sheetCells.rangeInvalid', { problem: t('form.valueRangeInvalid'), range: t('sheetCells.range', { rule: valueRangeText(rule, { and: t('sheetCells.and'), or: t('sheetCells.or') }) }) }) : t('form.valueRangeInvalid');
    case 'conditionTime':
      return t('form.conditionTimeRequired');
    case 'dateTime':
      return t('form.dateTimeRequired');
    case 'tooLong':
      return t('form.textTooLong', { max: String(sheetTextMaxLength) });
    case 'invalid':
      return t('sheetCells.invalid');
  }
}

const nodeName = (t: TFunction, column: SheetColumn, id: string | null) => {
  const node = referenceNodesOf(column).find((n) => n.id === id);
  if (!node) return '';
  const known = defaultReferenceNodes.some((d) => d.id === node.id && d.name === node.name);
  return known ? t(`sheetCells.defaultNodes.${node.id as (typeof defaultReferenceNodes)[number]['id']}`) : node.name;
};

/** A performance time written out in the user's language. */
export function performanceTimeText(t: TFunction, column: SheetColumn, time: PerformanceTime, language: string): string {
  if (time.conditionType === ScheduleConditionType.None) return time.date ? formatDay(time.date, language) : '';
  const node = nodeName(t, column, time.nodeId);
  const days = time.days.join(', ');
  if (time.conditionType === ScheduleConditionType.SingleOrMultiple) return t('sheetCells.timeText', { node, days });
  return t('sheetCells.periodicText', { node, days, cycle: time.cycle ? t(`fulfilment.cycles.${time.cycle}`) : '' });
}

/** The condition types (spec 4) by their value. */
const conditionTypeNames = ['none', 'single', 'periodic'] as const;

/** A new time of the chosen condition type, keeping what still applies of the old one. */
function retyped(time: PerformanceTime | null, conditionType: number): PerformanceTime {
  const nodeId = time && time.conditionType !== ScheduleConditionType.None ? time.nodeId : null;
  const days = time && time.conditionType !== ScheduleConditionType.None ? time.days : [];
  if (conditionType === ScheduleConditionType.SingleOrMultiple) return { conditionType, nodeId, days };
  if (conditionType === ScheduleConditionType.Periodicity) return { conditionType, nodeId, days: days.slice(0, 1), cycle: null };
  return { conditionType: ScheduleConditionType.None, date: null };
}

/** Days as typed ("30, 60"): whole numbers; anything else is left out. */
const parseDays = (text: string) => text.split(/[,，\s]+/).flatMap((part) => (/^\d{1,5}$/.test(part) ? [Number(part)] : []));

function PerformanceTimeEditor({ column, value, label, disabled, onChange }: { column: SheetColumn; value: PerformanceTime | null; label: string; disabled: boolean; onChange(value: PerformanceTime | null): void }) {
  const { t } = useTranslation();
  const conditionType = value?.conditionType ?? ScheduleConditionType.None;
  return (
    <div className="sheet-cell__time" data-testid="sheet-time">
      <HTMLSelect
        minimal
        aria-label={`${label} ${t('sheetCells.conditionType')}`}
        value={conditionType}
        disabled={disabled}
        options={conditionTypeNames.map((name, type) => ({ value: type, label: t(`sheetCells.conditionTypes.${name}`) }))}
        onChange={(event) => onChange(retyped(value, Number(event.currentTarget.value)))}
      />
      {value && value.conditionType !== ScheduleConditionType.None ? (
        <>
          <HTMLSelect
            minimal
            aria-label={t('sheetCells.referenceNode')}
            value={value.nodeId ?? ''}
            disabled={disabled}
            options={[{ value: '', label: t('sheetCells.referenceNode') }, ...referenceNodesOf(column).map((node) => ({ value: node.id, label: nodeName(t, column, node.id) }))]}
            onChange={(event) => onChange({ ...value, nodeId: event.currentTarget.value === '' ? null : event.currentTarget.value })}
          />
          <InputGroup
            small
            aria-label={t('sheetCells.days')}
            placeholder={t('sheetCells.daysHint')}
            defaultValue={value.days.join(', ')}
            disabled={disabled}
            onBlur={(event) => {
              const days = parseDays(event.currentTarget.value);
              onChange({ ...value, days: value.conditionType === ScheduleConditionType.Periodicity ? days.slice(0, 1) : days });
            }}
          />
          {value.conditionType === ScheduleConditionType.Periodicity && (
            <HTMLSelect
              minimal
              aria-label={t('sheetCells.cycle')}
              value={value.cycle ?? ''}
              disabled={disabled}
              options={[{ value: '', label: t('sheetCells.cycle') }, ...scheduleCycles.map((cycle) => ({ value: cycle, label: t(`fulfilment.cycles.${cycle}`) }))]}
              onChange={(event) => onChange({ ...value, cycle: event.currentTarget.value === '' ? null : (event.currentTarget.value as ScheduleCycle) })}
            />
          )}
        </>
      ) : (
        <CellField field={{ id: `sheet-${column.id}`, name: label, type: 'date', required: column.isRequired }} value={value?.conditionType === 0 ? (value.date ?? undefined) : undefined} disabled={disabled} onChange={(date) => onChange({ conditionType: ScheduleConditionType.None, date: typeof date === 'string' ? date : null })} />
      )}
    </div>
  );
}

function CellField({ field, value, disabled, onChange }: { field: FormField; value: unknown; disabled: boolean; onChange(value: unknown): void }) {
  const Field: FieldComponent | undefined = fieldComponents[field.type];
  if (!Field) return null;
  return <Field field={field} value={value as never} mode={disabled ? 'preview' : 'edit'} error={null} values={{}} onChange={onChange} />;
}

export interface SheetCellProps {
  column: SheetColumn;
  value: unknown;
  disabled: boolean;
  /** The cell's problem, shown under it once the user tried to save. */
  problem: CellProblem | null;
  onChange(value: unknown): void;
}

/** One editable cell of a custom column, with its problem under it. */
export function SheetCell({ column, value, disabled, problem, onChange }: SheetCellProps) {
  const { t } = useTranslation();
  const field = columnField(t, column);
  return (
    <div className={`sheet-cell sheet-cell--${column.type}`} data-testid={`sheet-cell-${column.id}`} data-problem={problem ?? undefined}>
      {column.type === 'performanceTime' ? (
        <PerformanceTimeEditor column={column} value={(value as PerformanceTime | null | undefined) ?? null} label={field.name} disabled={disabled} onChange={onChange} />
      ) : (
        <CellField field={field} value={value ?? undefined} disabled={disabled} onChange={(next) => onChange(next ?? null)} />
      )}
      {problem && (
        <div className="sheet-cell__problem" role="alert">
          {problemText(t, column, problem)}
        </div>
      )}
    </div>
  );
}

/** A custom cell as the sheet shows it when not editing. */
export function sheetCellText(t: TFunction, column: SheetColumn, value: unknown, language: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  switch (column.type) {
    case 'date':
      return typeof value === 'string' ? formatDay(value, language) : null;
    case 'money':
      return typeof value === 'object' && 'amount' in value ? formatMoney(value as { amount: number; unit: string }) : null;
    case 'select':
    case 'multiselect': {
      const ids = Array.isArray(value) ? value : [value];
      return ids.map((id) => column.config?.options?.find((o) => o.id === id)?.name ?? String(id)).join(t('contractForm.listSeparator'));
    }
    case 'people':
    case 'outerParty':
    case 'innerParty': {
      const list = Array.isArray(value) ? value : [value];
      return list.map((entry) => (typeof entry === 'object' && entry !== null && 'name' in entry ? String((entry as { name: unknown }).name) : String(entry))).join(t('contractForm.listSeparator'));
    }
    case 'performanceTime':
      return typeof value === 'object' ? performanceTimeText(t, column, value as PerformanceTime, language) : null;
    default:
      return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
  }
}

/** The contract's form as the performance tab has it from the contract page. */
export interface ContractFormValues {
  fields: readonly FormField[];
  values: Readonly<Record<string, unknown>>;
}

/**
 * The cell shown: a column that follows a contract field shows the contract's current value
 * (the server stores the same, and rewrites it when the contract changes); others their own.
 */
export function shownCell(column: SheetColumn, values: Readonly<Record<string, unknown>>, contractValues: Readonly<Record<string, unknown>> | undefined): unknown {
  const fieldId = column.config?.relatedFieldId;
  return fieldId && contractValues ? cellFromContract(column, fieldId, contractValues) : values[column.id];
}
