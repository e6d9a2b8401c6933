import { useState } from 'react';
import { Button, Card, Collapse, FormGroup, HTMLSelect, InputGroup, NumericInput, Switch, TagInput } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FieldConfig } from '../../../src-shared/domain/contract-forms';
import { CalculationOperator, type FieldType } from '../../../src-shared/domain/enums';
import { alterEditableStatus, ValueMethod } from '../../../src-shared/form/field-config';
import { isAlterable } from '../../../src-shared/rules/contract-forms';
import { calculableFieldTypes, choiceFieldTypes } from '../../../src-shared/rules/templates';
import { issueTexts } from './issueText';
import { fieldTypeChoices, moved, retyped, type DraftIssue } from './templateDraft';

// One field of a template (spec 3 "Form field config"): its name, type and required flag in a
// row, and below, what its type reads: placeholder, options, length, date and money formats, a
// calculation from other fields, the alteration right, the party type and the document bookmarks.

const textTypes: readonly FieldType[] = ['text', 'textarea'];
const placeholderTypes: readonly FieldType[] = ['text', 'textarea', 'number', 'money', 'bankAccount', 'select', 'multiselect', 'date', 'date-time'];
const dateTypes: readonly FieldType[] = ['date', 'daterange', 'date-time'];
const partyTypes: readonly FieldType[] = ['inputSelect', 'inputSelectV2'];
const directoryTypes: readonly FieldType[] = ['people', 'department'];
/** Formats the date fields offer (luxon tokens); none shows dates as the UI's language does. */
const dateFormats = ['yyyy-MM-dd', 'yyyy年MM月dd日', 'yyyy/MM/dd', 'yyyy-MM', 'yyyy年MM月', 'yyyy'];
/** The operators with their catalog keys (Add → add). */
const operators = Object.entries(CalculationOperator).map(([name, value]) => ({ value, key: `${name[0]!.toLowerCase()}${name.slice(1)}` as Uncapitalize<keyof typeof CalculationOperator> }));

type Operand = { valueMethod: 1; fieldId: string } | { valueMethod: 2; value: string };

interface CalculationGroup {
  valueList: Operand[];
  calculationWays: number[];
}

/** The calculation as the form engine reads it (spec 3: valueList joined by calculationWays). */
function calculationOf(field: FieldConfig): CalculationGroup | null {
  const group = field.fieldConfig?.calculationConditionGroup;
  return group ? { valueList: (group.valueList ?? []) as Operand[], calculationWays: (group.calculationWays ?? []) as number[] } : null;
}

/** Sets a part of fieldConfig; an emptied part goes, and an empty fieldConfig with it. */
function withFieldConfig(field: FieldConfig, part: keyof NonNullable<FieldConfig['fieldConfig']>, value: object | undefined): FieldConfig {
  const { [part]: _dropped, ...rest } = field.fieldConfig ?? {};
  const fieldConfig = value === undefined ? rest : { ...rest, [part]: value };
  const { fieldConfig: _old, ...bare } = field;
  return Object.keys(fieldConfig).length === 0 ? bare : { ...bare, fieldConfig };
}

/** Sets (or, with undefined, drops) one optional property. */
function withOptional<K extends keyof FieldConfig>(field: FieldConfig, key: K, value: FieldConfig[K] | undefined): FieldConfig {
  const { [key]: _dropped, ...rest } = field;
  return (value === undefined ? rest : { ...rest, [key]: value }) as FieldConfig;
}

function OptionsEditor({ field, readOnly, onChange }: { field: FieldConfig; readOnly: boolean; onChange(field: FieldConfig): void }) {
  const { t } = useTranslation();
  const options = field.options ?? [];
  const nextId = () => String(Math.max(0, ...options.map((option) => Number(option.id) || 0)) + 1);
  const set = (next: typeof options) => onChange(withOptional(field, 'options', next.length > 0 ? next : undefined));
  return (
    <FormGroup label={t('templates.field.options')} className="template-field__wide">
      {options.map((option, i) => (
        <div key={String(option.id)} className="template-field__row">
          <InputGroup
            small
            aria-label={t('templates.field.option', { n: i + 1 })}
            data-testid="template-option"
            value={option.name}
            disabled={readOnly}
            onValueChange={(name) => set(options.map((each, j) => (j === i ? { ...each, name } : each)))}
          />
          <Button
            small
            variant="minimal"
            icon="cross"
            aria-label={t('templates.field.remove')}
            data-testid="template-remove-option"
            disabled={readOnly}
            onClick={() => set(options.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button small variant="minimal" icon="add" text={t('templates.field.addOption')} disabled={readOnly} data-testid="template-add-option" onClick={() => set([...options, { id: nextId(), name: '' }])} />
    </FormGroup>
  );
}

function CalculationEditor({ field, operands, readOnly, onChange }: { field: FieldConfig; operands: readonly FieldConfig[]; readOnly: boolean; onChange(field: FieldConfig): void }) {
  const { t } = useTranslation();
  const group = calculationOf(field);
  const others = operands.filter((other) => other.id !== field.id && calculableFieldTypes.includes(other.type));
  const firstOperand = (): Operand => (others[0] ? { valueMethod: ValueMethod.FieldReference, fieldId: others[0].id } : { valueMethod: ValueMethod.Constant, value: '1' });
  const set = (next: CalculationGroup | null) => {
    const calculated = withFieldConfig(field, 'calculationConditionGroup', next ?? undefined);
    // The engine calculates a field whose content type says so (calculableContentTypes): 1 a number, 2 an amount.
    onChange(withFieldConfig(calculated, 'fieldContent', next ? { contentType: field.type === 'money' ? 2 : 1 } : undefined));
  };
  const setOperand = (i: number, operand: Operand) => group && set({ ...group, valueList: group.valueList.map((each, j) => (j === i ? operand : each)) });
  return (
    <div className="template-field__wide">
      <Switch
        label={t('templates.field.calculated')}
        checked={group !== null}
        disabled={readOnly}
        onChange={(event) => set(event.currentTarget.checked ? { valueList: [firstOperand()], calculationWays: [] } : null)}
      />
      {group?.valueList.map((operand, i) => (
        <div key={i} className="template-field__row">
          {i > 0 && (
            <HTMLSelect
              aria-label={t('templates.field.operand', { n: i + 1 })}
              value={group.calculationWays[i - 1]}
              disabled={readOnly}
              onChange={(event) => set({ ...group, calculationWays: group.calculationWays.map((way, j) => (j === i - 1 ? Number(event.currentTarget.value) : way)) })}
              options={operators.map(({ value, key }) => ({ value, label: t(`templates.field.operators.${key}`) }))}
            />
          )}
          <HTMLSelect
            aria-label={t('templates.field.operand', { n: i + 1 })}
            value={operand.valueMethod === ValueMethod.FieldReference ? operand.fieldId : ''}
            disabled={readOnly}
            onChange={(event) => {
              const chosen = event.currentTarget.value;
              setOperand(i, chosen === '' ? { valueMethod: ValueMethod.Constant, value: '1' } : { valueMethod: ValueMethod.FieldReference, fieldId: chosen });
            }}
            options={[...others.map((other) => ({ value: other.id, label: other.name })), { value: '', label: t('templates.field.constant') }]}
          />
          {operand.valueMethod === ValueMethod.Constant && (
            <InputGroup
              small
              aria-label={t('templates.field.constantValue')}
              value={operand.value}
              disabled={readOnly}
              onValueChange={(value) => setOperand(i, { valueMethod: ValueMethod.Constant, value })}
            />
          )}
          {i > 0 && (
            <Button
              small
              variant="minimal"
              icon="cross"
              aria-label={t('templates.field.remove')}
              disabled={readOnly}
              onClick={() => set({ valueList: group.valueList.filter((_, j) => j !== i), calculationWays: group.calculationWays.filter((_, j) => j !== i - 1) })}
            />
          )}
        </div>
      ))}
      {group && (
        <Button
          small
          variant="minimal"
          icon="add"
          text={t('templates.field.addOperand')}
          disabled={readOnly}
          onClick={() => set({ valueList: [...group.valueList, firstOperand()], calculationWays: [...group.calculationWays, CalculationOperator.Add] })}
        />
      )}
    </div>
  );
}

/** What the field's type reads besides its name, type and required flag. */
function FieldSettings({ field, operands, readOnly, onChange }: { field: FieldConfig; operands: readonly FieldConfig[] | null; readOnly: boolean; onChange(field: FieldConfig): void }) {
  const { t } = useTranslation();
  const type = field.type;
  const fromServer = field.remote === true;
  return (
    <div className="template-field__settings">
      <span className="bp6-text-muted">{t('templates.field.key', { id: field.id })}</span>
      {placeholderTypes.includes(type) && (
        <FormGroup label={t('templates.field.placeholder')}>
          <InputGroup small value={field.placeholder ?? ''} disabled={readOnly} onValueChange={(text) => onChange(withOptional(field, 'placeholder', text === '' ? undefined : text))} />
        </FormGroup>
      )}
      {textTypes.includes(type) && (
        <FormGroup label={t('templates.field.maxlength')}>
          <NumericInput
            small
            min={1}
            max={100_000}
            value={field.maxlength ?? ''}
            disabled={readOnly}
            onValueChange={(value) => onChange(withOptional(field, 'maxlength', Number.isInteger(value) && value > 0 ? value : undefined))}
          />
        </FormGroup>
      )}
      {dateTypes.includes(type) && (
        <FormGroup label={t('templates.field.dateFormat')}>
          <HTMLSelect
            value={field.fieldConfig?.date?.dateFormat ?? ''}
            disabled={readOnly}
            onChange={(event) => onChange(withFieldConfig(field, 'date', event.currentTarget.value === '' ? undefined : { dateFormat: event.currentTarget.value }))}
            options={[{ value: '', label: t('templates.field.defaultFormat') }, ...dateFormats.map((format) => ({ value: format, label: format }))]}
          />
        </FormGroup>
      )}
      {type === 'money' && (
        <div>
          <Switch
            label={t('templates.field.wordAmount')}
            checked={field.fieldConfig?.money?.isWordAmount ?? false}
            disabled={readOnly}
            onChange={(event) => onChange(withFieldConfig(field, 'money', { ...field.fieldConfig?.money, isWordAmount: event.currentTarget.checked }))}
          />
          <Switch
            label={t('templates.field.withUnit')}
            checked={field.fieldConfig?.money?.isWithUnit ?? false}
            disabled={readOnly}
            onChange={(event) => onChange(withFieldConfig(field, 'money', { ...field.fieldConfig?.money, isWithUnit: event.currentTarget.checked }))}
          />
        </div>
      )}
      {choiceFieldTypes.includes(type) && (
        <>
          <Switch label={t('templates.field.fromServer')} checked={fromServer} disabled={readOnly} onChange={(event) => onChange(withOptional(field, 'remote', event.currentTarget.checked || undefined))} />
          {!fromServer && <OptionsEditor field={field} readOnly={readOnly} onChange={onChange} />}
        </>
      )}
      {partyTypes.includes(type) && (
        <div>
          <FormGroup label={t('templates.field.partyType')}>
            <HTMLSelect
              value={field.partyType ?? 2}
              disabled={readOnly}
              onChange={(event) => onChange({ ...field, partyType: Number(event.currentTarget.value) === 1 ? 1 : 2 })}
              options={[
                { value: 1, label: t('templates.field.innerParty') },
                { value: 2, label: t('templates.field.outerParty') },
              ]}
            />
          </FormGroup>
          <Switch
            label={t('templates.field.firstPartyOnly')}
            checked={field.counterpartMultiple === 1}
            disabled={readOnly}
            onChange={(event) => onChange(withOptional(field, 'counterpartMultiple', event.currentTarget.checked ? 1 : undefined))}
          />
        </div>
      )}
      {directoryTypes.includes(type) && (
        <Switch label={t('templates.field.multiple')} checked={field.multiple ?? false} disabled={readOnly} onChange={(event) => onChange(withOptional(field, 'multiple', event.currentTarget.checked || undefined))} />
      )}
      {operands && calculableFieldTypes.includes(type) && <CalculationEditor field={field} operands={operands} readOnly={readOnly} onChange={onChange} />}
      {isAlterable({ ...field, alterEditStatus: alterEditableStatus }) && (
        <Switch
          label={t('templates.field.alterable')}
          checked={field.alterEditStatus === alterEditableStatus}
          disabled={readOnly}
          onChange={(event) => onChange(withOptional(field, 'alterEditStatus', event.currentTarget.checked ? alterEditableStatus : undefined))}
        />
      )}
      <FormGroup label={t('templates.field.bookmarks')} className="template-field__wide">
        <TagInput
          values={field.bookmarkNames ?? []}
          disabled={readOnly}
          placeholder={t('templates.field.bookmarksPlaceholder')}
          addOnBlur
          onChange={(values) => {
            const names = [...new Set(values.map((value) => String(value).trim()).filter((value) => value !== ''))];
            onChange(withOptional(field, 'bookmarkNames', names.length > 0 ? names : undefined));
          }}
        />
      </FormGroup>
    </div>
  );
}

export interface FieldListProps {
  fields: readonly FieldConfig[];
  /** Issues of these fields, by path below `path` ('fields', 'clauses.0.statementList.1.fieldList'). */
  issues: readonly DraftIssue[];
  path: string;
  /** Whether a field here may be calculated from the others (not a statement's fields). */
  calculations: boolean;
  readOnly: boolean;
  onChange(fields: FieldConfig[]): void;
  /** Removes the field at an index (a clause field takes its clause along). */
  onRemove(index: number): void;
}

/** A list of fields, each a card; a clause field is edited with its clause (its type and name stay). */
export function FieldList({ fields, issues, path, calculations, readOnly, onChange, onRemove }: FieldListProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="template-fields">
      {fields.map((field, index) => {
        const own = issues.filter((issue) => issue.path === `${path}.${index}` || issue.path.startsWith(`${path}.${index}.`));
        const isClause = field.type === 'clause';
        const change = (next: FieldConfig) => onChange(fields.map((each, i) => (i === index ? next : each)));
        return (
          <Card key={index} compact className={own.length > 0 ? 'template-field template-field--invalid' : 'template-field'} data-testid="template-field">
            <div className="template-field__row">
              <InputGroup
                className="template-field__name"
                aria-label={t('templates.field.name')}
                placeholder={t('templates.field.namePlaceholder')}
                data-testid="template-field-name"
                value={field.name}
                disabled={readOnly || isClause}
                onValueChange={(name) => change({ ...field, name })}
              />
              <HTMLSelect
                aria-label={t('templates.field.type')}
                data-testid="template-field-type"
                value={field.type}
                disabled={readOnly || isClause}
                onChange={(event) => change(retyped(field, event.currentTarget.value as FieldType))}
                options={(isClause ? (['clause'] as const) : fieldTypeChoices).map((type) => ({ value: type, label: t(`templates.types.${type}`) }))}
              />
              <Switch
                className="template-field__required"
                label={t('templates.field.required')}
                checked={field.required ?? false}
                disabled={readOnly}
                onChange={(event) => change(withOptional(field, 'required', event.currentTarget.checked || undefined))}
              />
              <Button small variant="minimal" icon="arrow-up" aria-label={t('templates.field.moveUp')} disabled={readOnly || index === 0} onClick={() => onChange(moved(fields, index, index - 1))} />
              <Button
                small
                variant="minimal"
                icon="arrow-down"
                aria-label={t('templates.field.moveDown')}
                disabled={readOnly || index === fields.length - 1}
                onClick={() => onChange(moved(fields, index, index + 1))}
              />
              {!isClause && (
                <Button
                  small
                  variant="minimal"
                  icon="cog"
                  aria-label={t('templates.field.settings')}
                  aria-expanded={open === field.id}
                  active={open === field.id}
                  data-testid="template-field-settings"
                  onClick={() => setOpen(open === field.id ? null : field.id)}
                />
              )}
              <Button small variant="minimal" intent="danger" icon="trash" aria-label={t('templates.field.remove')} disabled={readOnly} onClick={() => onRemove(index)} />
            </div>
            {own.length > 0 && (
              <ul className="template-field__issues" role="alert">
                {issueTexts(t, own).map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            )}
            <Collapse isOpen={open === field.id && !isClause}>
              <FieldSettings field={field} operands={calculations ? fields : null} readOnly={readOnly} onChange={change} />
            </Collapse>
          </Card>
        );
      })}
      {fields.length === 0 && <p className="bp6-text-muted">{t('templates.field.none')}</p>}
    </div>
  );
}
