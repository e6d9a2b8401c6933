import { Callout, FormGroup, Intent } from '@blueprintjs/core';
import { memo, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldType, FormMode } from '../../../src-shared/domain/enums';
import type { FormField } from '../../../src-shared/form/field-config';
import { fieldComponents } from './fields/registry';
import { fieldInputId, fieldRowId } from './ids';
import type { FieldComponent } from './types';


/**
 * Field types whose component reads `values` (the other fields). Every other row re-renders
 * only when its own value, mode or message changes, so a keystroke redraws the edited field
 * and its calculated dependants; add a type here when its component starts reading `values`.
 */
export const fieldTypesReadingValues: ReadonlySet<FieldType> = new Set<FieldType>(['contractNumber', 'clause', 'sheetTable']);

export interface FieldRowProps {
  field: FormField;
  value: unknown;
  mode: FormMode;
  error: string | null;
  /** A calculated field: the engine computes it, the row shows it read-only. */
  calculated: boolean;
  values: Readonly<Record<string, unknown>>;
  onChange(fieldId: string, value: unknown): void;
  onBlur(fieldId: string): void;
}

function FieldRowView({ field, value, mode, error, calculated, values, onChange, onBlur }: FieldRowProps) {
  const { t } = useTranslation();
  const change = useCallback((next: unknown) => onChange(field.id, next), [field.id, onChange]);
  const blur = useCallback(() => onBlur(field.id), [field.id, onBlur]);
  const Component: FieldComponent | undefined = fieldComponents[field.type];
  const rowMode = calculated ? 'preview' : mode;
  return (
    <div id={fieldRowId(field.id)} data-testid={`field-${field.id}`} data-mode={rowMode} className="contract-form__row">
      <FormGroup
        label={field.name}
        labelFor={fieldInputId(field.id)}
        labelInfo={
          <>
            {field.required && rowMode !== 'preview' && <span className="contract-form__required" aria-hidden="true">*</span>}
            {calculated && <span className="contract-form__calculated"> ({t('contractForm.calculated')})</span>}
          </>
        }
        intent={error ? Intent.DANGER : Intent.NONE}
        helperText={error ? <span data-testid={`field-error-${field.id}`}>{error}</span> : undefined}
      >
        {Component ? (
          <Component field={field} value={value as never} mode={rowMode} error={error} onChange={change as (v: never) => void} onBlur={blur} values={values} />
        ) : (
          <Callout intent={Intent.WARNING} compact data-testid={`unsupported-${field.id}`}>
            {t('contractForm.unsupportedFieldType', { type: field.type })}
          </Callout>
        )}
      </FormGroup>
    </div>
  );
}

function sameRow(before: FieldRowProps, after: FieldRowProps): boolean {
  return (
    before.field === after.field &&
    Object.is(before.value, after.value) &&
    before.mode === after.mode &&
    before.error === after.error &&
    before.calculated === after.calculated &&
    before.onChange === after.onChange &&
    before.onBlur === after.onBlur &&
    (before.values === after.values || !fieldTypesReadingValues.has(after.field.type))
  );
}

/** One field: label, required mark, the field's component by type, and its message under it. */
export const FieldRow = memo(FieldRowView, sameRow);
