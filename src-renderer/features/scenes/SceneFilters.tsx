import { Button, Checkbox, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FilterCondition, LedgerField } from '../../../src-shared/domain/ledger';
import { api } from '../../api/api';
import { DateInput } from '../../i18n/DateInput';
import { fieldLabel } from './sceneText';
import { optionLabel, optionsOf } from './sceneValues';

// The scene's filter drawer (spec 2, "Ledger list screen"): one control per filter field, chosen
// by the field's type. Money is typed in units and asked in hundredths; a range with both bounds
// empty asks nothing (the core drops it, as the server does).

export type FilterDraft = Record<string, FilterCondition['condition']>;

interface SceneFiltersProps {
  fields: readonly LedgerField[];
  draft: FilterDraft;
  keyword: string;
  onDraftChange(draft: FilterDraft): void;
  onKeywordChange(keyword: string): void;
  onSearch(): void;
  onReset(): void;
}

/** The request's filter list: the drawer's conditions that ask something. */
export function filterList(fields: readonly LedgerField[], draft: FilterDraft): FilterCondition[] {
  return fields.flatMap((field) => {
    const condition = draft[field.id];
    if (!condition) return [];
    const asks = (condition.in?.length ?? 0) > 0 || !!condition.searchWord || [condition.gte, condition.lte].some((b) => b !== undefined && b !== null && b !== '');
    return asks ? [{ id: field.id, type: field.type, condition }] : [];
  });
}

const toHundredths = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? '' : Math.round(Number(text) * 100));
const fromHundredths = (value: unknown) => (typeof value === 'number' ? String(value / 100) : '');

function FieldControl({ field, condition, onChange }: { field: LedgerField; condition: FilterCondition['condition']; onChange(next: FilterCondition['condition']): void }) {
  const { t } = useTranslation();
  const { data: directory } = api.useDirectoryQuery(undefined, { skip: field.type !== 'people' });
  const id = `scene-filter-${field.id}`;
  switch (field.type) {
    case 'people':
      return (
        <HTMLSelect
          id={id}
          value={String(condition.in?.[0] ?? '')}
          options={[{ value: '', label: '--' }, ...(directory?.users ?? []).map((user) => ({ value: user.id, label: user.name }))]}
          onChange={(event) => onChange({ in: event.currentTarget.value ? [event.currentTarget.value] : [] })}
        />
      );
    case 'money':
    case 'number': {
      const scale = field.type === 'money' ? { read: fromHundredths, write: toHundredths } : { read: (v: unknown) => (v === undefined || v === null ? '' : String(v)), write: (s: string) => s.trim() };
      return (
        <div className="scene-filters__range">
          <InputGroup id={id} placeholder={t('scenes.minimum')} value={scale.read(condition.gte)} onValueChange={(v) => onChange({ ...condition, gte: scale.write(v) })} />
          <InputGroup placeholder={t('scenes.maximum')} value={scale.read(condition.lte)} onValueChange={(v) => onChange({ ...condition, lte: scale.write(v) })} />
        </div>
      );
    }
    case 'date':
      return (
        <div className="scene-filters__range">
          <DateInput id={id} placeholder={t('scenes.from')} value={String(condition.gte ?? '')} onChange={(v) => onChange({ ...condition, gte: v ?? '' })} />
          <DateInput placeholder={t('scenes.to')} value={String(condition.lte ?? '')} onChange={(v) => onChange({ ...condition, lte: v ?? '' })} />
        </div>
      );
    case 'select':
      return (
        <HTMLSelect
          id={id}
          value={String(condition.in?.[0] ?? '')}
          options={[{ value: '', label: '--' }, ...optionsOf(field).map((option) => ({ value: String(option.id), label: optionLabel(t, field, option) }))]}
          onChange={(event) => {
            const chosen = optionsOf(field).find((option) => String(option.id) === event.currentTarget.value);
            onChange({ in: chosen ? [chosen.id] : [] });
          }}
        />
      );
    case 'multiselect':
      return (
        <div className="scene-filters__options" id={id}>
          {optionsOf(field).map((option) => {
            const chosen = condition.in ?? [];
            return (
              <Checkbox
                key={String(option.id)}
                inline
                label={optionLabel(t, field, option)}
                checked={chosen.includes(option.id)}
                onChange={(event) => onChange({ in: event.currentTarget.checked ? [...chosen, option.id] : chosen.filter((v) => v !== option.id) })}
              />
            );
          })}
        </div>
      );
    default:
      // upload, input-select, contract editor and others: a contains search over the value's text.
      return <InputGroup id={id} placeholder={t('scenes.contains')} value={condition.searchWord ?? ''} onValueChange={(v) => onChange({ searchWord: v })} />;
  }
}

export function SceneFilters({ fields, draft, keyword, onDraftChange, onKeywordChange, onSearch, onReset }: SceneFiltersProps) {
  const { t } = useTranslation();
  return (
    <form
      className="scene-filters"
      data-testid="scene-filters"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
    >
      <FormGroup label={t('scenes.keyword')} labelFor="scene-keyword">
        <InputGroup id="scene-keyword" data-testid="scene-keyword" leftIcon="search" value={keyword} onValueChange={onKeywordChange} />
      </FormGroup>
      {fields.map((field) => (
        <FormGroup key={field.id} label={fieldLabel(t, field)} labelFor={`scene-filter-${field.id}`} data-testid={`scene-filter-${field.id}`}>
          <FieldControl field={field} condition={draft[field.id] ?? {}} onChange={(next) => onDraftChange({ ...draft, [field.id]: next })} />
        </FormGroup>
      ))}
      <div className="scene-filters__actions">
        <Button type="submit" intent="primary" icon="search" text={t('scenes.search')} data-testid="scene-search" />
        <Button text={t('scenes.reset')} onClick={onReset} data-testid="scene-reset" />
      </div>
    </form>
  );
}
