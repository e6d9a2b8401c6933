import { useState } from 'react';
import { Button, Checkbox, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FilterCondition, LedgerField } from '../../../src-shared/domain/ledger';
import { rangeBoundText, rangeBoundValue, rangeInputMax, rangeProblem } from '../../../src-shared/rules/range-filter';
import { api } from '../../api/api';
import { DateInput } from '../../i18n/DateInput';
import { fieldLabel } from './sceneText';
import { optionLabel, optionsOf } from './sceneValues';

// The scene's filter drawer (spec 2, "Ledger list screen"): one control per filter field, chosen
// by the field's type, starting from the scene's kept filter values, which the user may keep
// anew. Money is typed in units and asked in hundredths; a range with both bounds empty asks
// nothing (the core drops it, as the server does).

export type FilterDraft = Record<string, FilterCondition['condition']>;

interface SceneFiltersProps {
  fields: readonly LedgerField[];
  draft: FilterDraft;
  keyword: string;
  onDraftChange(draft: FilterDraft): void;
  onKeywordChange(keyword: string): void;
  onSearch(): void;
  /** Back to the scene's kept values. */
  onReset(): void;
  /** Keeps the drawer's values as the scene's filter values. */
  onKeep(): void;
  keeping: boolean;
}

/**
 * The request's filter list: the drawer's conditions that ask something, and on the fields in
 * `kept` (the scene's kept filter values) every condition, an emptied one too, so that it
 * replaces the kept one (src-shared/rules/ledger-search.ts).
 */
export function filterList(fields: readonly LedgerField[], draft: FilterDraft, kept: ReadonlySet<string> = new Set()): FilterCondition[] {
  return fields.flatMap((field) => {
    const condition = draft[field.id] ?? {};
    const asks = (condition.in?.length ?? 0) > 0 || !!condition.searchWord || [condition.gte, condition.lte].some((b) => b !== undefined && b !== null && b !== '');
    return asks || kept.has(field.id) ? [{ id: field.id, type: field.type, condition }] : [];
  });
}

/** The draft of a scene's kept filter values, by field. */
export const draftOf = (filters: readonly FilterCondition[]): FilterDraft => Object.fromEntries(filters.map((filter) => [filter.id, filter.condition]));

/** Whether a range of the draft has its minimum above its maximum (the drawer says so; the search waits). */
export const draftInverted = (draft: FilterDraft) => Object.values(draft).some((condition) => rangeProblem(boundOf(condition.gte), boundOf(condition.lte)) !== null);

const boundOf = (value: FilterCondition['condition']['gte']) => (typeof value === 'number' || (typeof value === 'string' && rangeBoundValue(value)) ? value : undefined);

/** A bound as the drawer shows it: money in units (kept in hundredths). */
function boundText(value: unknown, money: boolean): string {
  if (typeof value !== 'number' && typeof value !== 'string') return '';
  const number = rangeBoundValue(String(value));
  if (!number) return '';
  return (money ? number.dividedBy(100) : number).toString();
}

/**
 * A number or money range: each bound keeps at most 8 decimals and 15 characters; a minimum above
 * the maximum is said at once and, when the user leaves the edited side, that side is cleared (spec 5).
 */
function RangeControl({ id, field, condition, onChange }: { id: string; field: LedgerField; condition: FilterCondition['condition']; onChange(next: FilterCondition['condition']): void }) {
  const { t } = useTranslation();
  const money = field.type === 'money';
  const [texts, setTexts] = useState({ gte: boundText(condition.gte, money), lte: boundText(condition.lte, money) });
  const valueOf = (text: string) => {
    const number = rangeBoundValue(text);
    if (!number) return '';
    return (money ? number.times(100) : number).toNumber();
  };
  const problem = rangeProblem(rangeBoundValue(texts.gte), rangeBoundValue(texts.lte));
  const write = (next: typeof texts) => {
    setTexts(next);
    const { gte: _gte, lte: _lte, ...rest } = condition;
    const [gte, lte] = [valueOf(next.gte), valueOf(next.lte)];
    onChange({ ...rest, ...(gte !== '' && { gte }), ...(lte !== '' && { lte }) });
  };
  const bound = (side: 'gte' | 'lte', placeholder: string) => (
    <InputGroup
      id={side === 'gte' ? id : undefined}
      data-testid={`${id}-${side}`}
      placeholder={placeholder}
      maxLength={rangeInputMax}
      inputMode="decimal"
      intent={problem ? 'danger' : 'none'}
      value={texts[side]}
      onValueChange={(typed) => write({ ...texts, [side]: rangeBoundText(typed) })}
      onBlur={() => {
        if (problem) write({ ...texts, [side]: '' });
      }}
    />
  );
  return (
    <>
      <div className="scene-filters__range">
        {bound('gte', t('scenes.minimum'))}
        {bound('lte', t('scenes.maximum'))}
      </div>
      {problem && (
        <div className="scene-filters__problem" role="alert" data-testid={`${id}-problem`}>
          {t(`scenes.messages.${problem}`)}
        </div>
      )}
    </>
  );
}

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
    case 'number':
      return <RangeControl id={id} field={field} condition={condition} onChange={onChange} />;
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

export function SceneFilters({ fields, draft, keyword, onDraftChange, onKeywordChange, onSearch, onReset, onKeep, keeping }: SceneFiltersProps) {
  const { t } = useTranslation();
  return (
    <form
      className="scene-filters"
      data-testid="scene-filters"
      onSubmit={(event) => {
        event.preventDefault();
        // An inverted range is said beside it; the search waits until it is corrected.
        if (!draftInverted(draft)) onSearch();
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
        <Button icon="floppy-disk" text={t('scenes.saveFilters')} loading={keeping} disabled={draftInverted(draft)} onClick={onKeep} data-testid="scene-keep-filters" />
      </div>
    </form>
  );
}
