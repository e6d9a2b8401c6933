import { Button, Checkbox, FormGroup, HTMLSelect, InputGroup, TagInput } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { relatableColumnTypes, taskFieldColumns, type SheetColumn } from '../../../src-shared/domain/performance';
import { basicContractFields, sourceFieldsFor } from '../../../src-shared/rules/contract-sources';
import { choiceColumnTypes } from '../../../src-shared/rules/performance-definitions';
import { andMode, comparatorSigns, orMode, rangeComparators, type RangeComparator } from '../../../src-shared/rules/value-range';

// What a sheet column of each type is set up with in the definitions editor (spec 3, spec 5): the
// options of a choice, one person or several, the contract field a column follows (relate field),
// the value-range rule of a number or money column, the reference nodes of a performance time.
// The cells' rules (src-shared/rules/sheet-cells.ts) read these on every device and the server.

type Config = NonNullable<SheetColumn['config']>;
type Range = NonNullable<Config['valueRange']>;
type Option = { id: string; name: string };

/** A new id for a column, field, option or node (ids are data the server keeps, unique in their list). */
export const newId = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

/** At most this many conditions in a rule (the schema's). */
const maxConditions = 10;

/** Whether a column of this id and type may follow a contract field: relatable types, not the task's own values. */
const mayFollow = (column: Pick<SheetColumn, 'id' | 'type'>) => relatableColumnTypes.includes(column.type) && !taskFieldColumns.includes(column.id);

/** The settings a column of its type has; the others go when its type changes, so none is left that the type has no use for. */
export function configFor(column: Pick<SheetColumn, 'id' | 'type' | 'config'>): Config | undefined {
  const { options, singleSelect, valueRange, referenceNodes, relatedFieldId } = column.config ?? {};
  const kept: Config = {
    ...(choiceColumnTypes.includes(column.type) && options && { options }),
    ...(column.type === 'people' && singleSelect !== undefined && { singleSelect }),
    ...((column.type === 'number' || column.type === 'money') && valueRange && { valueRange }),
    ...(column.type === 'performanceTime' && referenceNodes && { referenceNodes }),
    ...(mayFollow(column) && relatedFieldId !== undefined && { relatedFieldId }),
  };
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** Named entries as tags (a choice's options, a performance time's nodes): Enter adds one, the cross removes it. */
export function NamedTags({ items, onChange, label, placeholder, prefix }: { items: readonly Option[]; onChange(items: Option[]): void; label: string; placeholder: string; prefix: string }) {
  return (
    <TagInput
      fill
      addOnBlur
      values={items.map((item) => item.name)}
      placeholder={placeholder}
      inputProps={{ 'aria-label': label }}
      // Enter adds the entry; it does not also submit the dialog's form.
      onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
      onAdd={(names) => onChange([...items, ...names.map((name) => name.trim()).filter((name) => name !== '').map((name) => ({ id: newId(prefix), name }))])}
      onRemove={(_value, index) => onChange(items.filter((_, i) => i !== index))}
    />
  );
}

/** The contract field the column follows: the basic fields of its kind, or none; one set elsewhere stays offered as it is. */
function RelatedField({ column, onChange, label }: { column: SheetColumn; onChange(fieldId: string | undefined): void; label: string }) {
  const { t } = useTranslation();
  const current = column.config?.relatedFieldId;
  const offered = sourceFieldsFor(column, basicContractFields).map((field) => ({ value: field.id, label: t(`definitions.contractFields.${field.id}`) }));
  const elsewhere = current !== undefined && !offered.some((option) => option.value === current) ? [{ value: current, label: current }] : [];
  return (
    <FormGroup inline label={t('definitions.relatedField')} className="definitions__setting">
      <HTMLSelect
        value={current ?? ''}
        aria-label={label}
        data-testid="definition-related-field"
        onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        options={[{ value: '', label: t('definitions.relatedNone') }, ...offered, ...elsewhere]}
      />
    </FormGroup>
  );
}

/** The value-range rule: conditions (=, ≠, >, ≥, <, ≤ and a bound) combined by and or or; none, no rule. */
function ValueRange({ range, onChange, label }: { range: Range | undefined; onChange(range: Range | undefined): void; label: string }) {
  const { t } = useTranslation();
  if (!range) {
    return (
      <Button
        size="small"
        variant="minimal"
        icon="add"
        text={t('definitions.addRange')}
        data-testid="definition-add-range"
        onClick={() => onChange({ mode: andMode, conditions: [{ comparator: 'greater', value: '0' }] })}
      />
    );
  }
  const setCondition = (index: number, patch: Partial<Range['conditions'][number]>) =>
    onChange({ ...range, conditions: range.conditions.map((condition, i) => (i === index ? { ...condition, ...patch } : condition)) });
  const remove = (index: number) => {
    const conditions = range.conditions.filter((_, i) => i !== index);
    onChange(conditions.length > 0 ? { ...range, conditions } : undefined);
  };
  return (
    <fieldset className="definitions__range" data-testid="definition-range" aria-label={`${t('definitions.valueRange')}: ${label}`}>
      <legend>{t('definitions.valueRange')}</legend>
      {range.conditions.length > 1 && (
        <HTMLSelect
          value={range.mode}
          aria-label={t('definitions.rangeMode')}
          onChange={(event) => onChange({ ...range, mode: Number(event.currentTarget.value) === orMode ? orMode : andMode })}
          options={[
            { value: andMode, label: t('definitions.rangeModes.and') },
            { value: orMode, label: t('definitions.rangeModes.or') },
          ]}
        />
      )}
      {range.conditions.map((condition, index) => (
        <div key={index} className="definitions__condition" data-testid="definition-range-condition">
          <HTMLSelect
            value={condition.comparator}
            aria-label={t('definitions.comparator')}
            onChange={(event) => setCondition(index, { comparator: event.currentTarget.value as RangeComparator })}
            options={rangeComparators.map((comparator) => ({ value: comparator, label: comparatorSigns[comparator] }))}
          />
          <InputGroup size="small" inputMode="decimal" maxLength={15} value={condition.value} aria-label={t('definitions.rangeValue')} onValueChange={(value) => setCondition(index, { value: value.trim() })} />
          <Button size="small" variant="minimal" icon="cross" aria-label={t('definitions.removeCondition')} title={t('definitions.removeCondition')} onClick={() => remove(index)} />
        </div>
      ))}
      {range.conditions.length < maxConditions && (
        <Button
          size="small"
          variant="minimal"
          icon="add"
          text={t('definitions.addCondition')}
          onClick={() => onChange({ ...range, conditions: [...range.conditions, { comparator: 'lessOrEqual', value: '' }] })}
        />
      )}
    </fieldset>
  );
}

/** The settings cell of a column's row: what its type is set up with, or '--' when nothing. */
export function ColumnSettings({ column, name, onChange }: { column: SheetColumn; name: string; onChange(config: Config | undefined): void }) {
  const { t } = useTranslation();
  const label = `${t('definitions.settings')}: ${name}`;
  const set = (patch: Partial<Config>) => onChange(configFor({ ...column, config: { ...column.config, ...patch } }));
  const parts = [
    choiceColumnTypes.includes(column.type) && !column.isState && (
      <NamedTags
        key="options"
        label={label}
        prefix="option"
        placeholder={t('definitions.optionsPlaceholder')}
        items={column.config?.options ?? []}
        onChange={(options) => set({ options })}
      />
    ),
    column.type === 'people' && (
      <Checkbox
        key="single"
        className="definitions__flag"
        label={t('definitions.singleSelect')}
        checked={column.config?.singleSelect ?? false}
        onChange={(event) => set({ singleSelect: event.currentTarget.checked })}
      />
    ),
    column.type === 'performanceTime' && (
      <FormGroup key="nodes" label={t('definitions.referenceNodes')} helperText={t('definitions.nodesDefault')} className="definitions__setting">
        <NamedTags
          label={`${t('definitions.referenceNodes')}: ${name}`}
          prefix="node"
          placeholder={t('definitions.nodesPlaceholder')}
          items={column.config?.referenceNodes ?? []}
          onChange={(referenceNodes) => set({ referenceNodes: referenceNodes.length > 0 ? referenceNodes : undefined })}
        />
      </FormGroup>
    ),
    (column.type === 'number' || column.type === 'money') && <ValueRange key="range" label={name} range={column.config?.valueRange} onChange={(valueRange) => set({ valueRange })} />,
    mayFollow(column) && <RelatedField key="related" column={column} label={`${t('definitions.relatedField')}: ${name}`} onChange={(relatedFieldId) => set({ relatedFieldId })} />,
  ].filter(Boolean);
  return parts.length > 0 ? <div className="definitions__settings-stack">{parts}</div> : '--';
}
