import { ControlGroup, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormMessage } from '../../../../../src-shared/form/messages';
import { resolveNumberFormat } from '../../../../../src-shared/form/money';
import { changeNumberRange, numberMaxLength, sanitizeNumberInput, type NumberRange } from '../../../../../src-shared/form/number-range';
import { formMessageText } from '../../messageText';
import type { FieldProps } from '../../types';
import { asText, fieldInputId, PreviewText, usePlaceholder } from './shared';

/**
 * A number field whose config has this rawType holds a range {min, max} (filters); defined here,
 * the spec lists no separate range type.
 */
export const numberRangeRawType = 'numberRange';

/** Percent fields (numberFormat 5 and 6) hold the number shown before the '%' (spec 9). */
const percentSuffix = (field: FieldProps['field']) => (resolveNumberFormat(field.privateConfig).percent ? '%' : '');

function SingleNumber({ field, value, mode, error, onChange, onBlur }: FieldProps<string>) {
  const placeholder = usePlaceholder(field);
  const text = asText(value);
  const suffix = percentSuffix(field);
  if (mode === 'preview') return <PreviewText field={field} text={text === '' ? '' : `${text}${suffix}`} />;
  return (
    <InputGroup
      id={fieldInputId(field.id)}
      inputMode="decimal"
      value={text}
      maxLength={numberMaxLength}
      placeholder={placeholder}
      disabled={mode === 'disabled'}
      intent={error ? Intent.DANGER : Intent.NONE}
      rightElement={suffix ? <span className="contract-form__suffix">{suffix}</span> : undefined}
      onValueChange={(typed) => {
        const kept = sanitizeNumberInput(typed);
        onChange(kept === '' ? undefined : kept);
      }}
      onBlur={onBlur}
    />
  );
}

const asRange = (value: unknown): NumberRange => {
  const range = (value ?? {}) as Partial<NumberRange>;
  return { min: asText(range.min), max: asText(range.max) };
};

function NumberRangeInput({ field, value, mode, error, onChange, onBlur }: FieldProps<NumberRange>) {
  const { t } = useTranslation();
  const [message, setMessage] = useState<FormMessage | null>(null);
  const range = asRange(value);
  if (mode === 'preview') {
    const text = range.min === '' && range.max === '' ? '' : `${range.min} ${t('contractForm.rangeTo')} ${range.max}`;
    return <PreviewText field={field} text={text} />;
  }
  const edit = (side: keyof NumberRange) => (typed: string) => {
    const change = changeNumberRange(range, side, typed);
    setMessage(change.message ?? null);
    onChange(change.range.min === '' && change.range.max === '' ? undefined : change.range);
  };
  const input = (side: keyof NumberRange, label: string) => (
    <InputGroup
      id={side === 'min' ? fieldInputId(field.id) : `${fieldInputId(field.id)}-max`}
      aria-label={label}
      placeholder={label}
      inputMode="decimal"
      value={range[side]}
      maxLength={numberMaxLength}
      disabled={mode === 'disabled'}
      intent={error || message ? Intent.DANGER : Intent.NONE}
      onValueChange={edit(side)}
      onBlur={onBlur}
    />
  );
  return (
    <>
      <ControlGroup>
        {input('min', t('contractForm.minimum'))}
        <span className="contract-form__range-to">{t('contractForm.rangeTo')}</span>
        {input('max', t('contractForm.maximum'))}
      </ControlGroup>
      {message && (
        <div className="contract-form__field-message" role="alert" data-testid={`range-message-${field.id}`}>
          {formMessageText(t, message)}
        </div>
      )}
    </>
  );
}

/** Numbers keep 8 decimals (truncated) and 15 characters; rawType numberRange makes it a range. */
export function NumberField(props: FieldProps<string | NumberRange>) {
  return props.field.rawType === numberRangeRawType ? (
    <NumberRangeInput {...(props as FieldProps<NumberRange>)} />
  ) : (
    <SingleNumber {...(props as FieldProps<string>)} />
  );
}
