import { Classes, HTMLSelect } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOption, FormField } from '../../../../../src-shared/form/field-config';
import { cascaderPath } from '../../../../../src-shared/form/options';
import { fieldInputId } from '../../ids';
import type { FieldProps } from '../../types';

export { fieldInputId };

/** Read-only text of a field in preview mode; a dash when there is nothing to show. */
export function PreviewText({ field, text, children }: { field: FormField; text: string | null | undefined; children?: ReactNode }) {
  const { t } = useTranslation();
  const empty = text === null || text === undefined || text === '';
  return (
    <div id={fieldInputId(field.id)} className={`contract-form__preview${empty ? ` ${Classes.TEXT_MUTED}` : ''}`} data-testid={`preview-${field.id}`}>
      {empty ? t('contractForm.empty') : text}
      {children}
    </div>
  );
}

/** The placeholder the field config gives, else the spec's 'please enter' wording. */
export function usePlaceholder(field: FormField, verb: 'pleaseEnter' | 'pleaseSelect' = 'pleaseEnter'): string {
  const { t } = useTranslation();
  return field.placeholder ?? t(`form.${verb}`, { name: field.name });
}

/** Names of the chosen option ids (at any depth), joined in the UI language. */
export function useOptionNames(): (options: readonly FieldOption[], ids: readonly string[]) => string {
  const { t } = useTranslation();
  return (options, ids) =>
    ids
      .map((id) => cascaderPath(options, id).at(-1)?.name ?? id)
      .join(t('contractForm.listSeparator'));
}

export const asText = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
export const asIds = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A native select of options, with an empty first entry for "nothing chosen". */
export function OptionSelect({
  id,
  options,
  value,
  placeholder,
  props,
  onSelect,
}: {
  id?: string;
  options: readonly FieldOption[];
  value: string;
  placeholder: string;
  props: FieldProps<never>;
  onSelect(id: string | undefined): void;
}) {
  return (
    <HTMLSelect
      id={id}
      fill
      value={value}
      disabled={props.mode === 'disabled'}
      onChange={(event) => onSelect(event.currentTarget.value || undefined)}
      onBlur={props.onBlur}
    >
      <option value="">{placeholder}</option>
      {options.map((option) => (
        <option key={option.id} value={option.id} disabled={option.disabled}>
          {option.name}
        </option>
      ))}
    </HTMLSelect>
  );
}

