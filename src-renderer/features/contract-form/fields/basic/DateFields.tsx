import { ControlGroup, InputGroup, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  dateRangeValueFormat,
  dateTimeValueFormat,
  dateValueFormat,
  defaultDateDisplayFormat,
  formatDateDisplay,
  formatDateRangeDisplay,
  parseDate,
  type DateRangeValue,
} from '../../../../../src-shared/form/dates';
import type { FieldProps } from '../../types';
import { asText, fieldInputId, PreviewText } from './shared';

// Dates use the browser's own date inputs (value yyyy-MM-dd, which is also the field's value
// format); every value is parsed strictly with luxon on the way in and out (spec 9).

const dateTimeInputFormats = ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"];

/** Converts between two formats; '' when the text is not a real day in the first. */
function convert(text: string, from: readonly string[], to: string): string {
  for (const format of from) {
    const parsed = parseDate(text, format);
    if (parsed.ok) return parsed.value.toFormat(to);
  }
  return '';
}

const displayFormat = (field: FieldProps['field']) => field.fieldConfig?.date?.dateFormat;

interface DayInputProps {
  id: string;
  label?: string;
  type: 'date' | 'datetime-local';
  inputValue: string;
  props: FieldProps<never>;
  onInput(text: string): void;
}

function DayInput({ id, label, type, inputValue, props, onInput }: DayInputProps) {
  return (
    <InputGroup
      id={id}
      type={type}
      aria-label={label}
      step={type === 'datetime-local' ? 1 : undefined}
      value={inputValue}
      disabled={props.mode === 'disabled'}
      intent={props.error ? Intent.DANGER : Intent.NONE}
      onChange={(event) => onInput(event.currentTarget.value)}
      onBlur={props.onBlur}
    />
  );
}

/** A day: value yyyy-MM-dd, shown yyyy年MM月dd日 or in the field's dateFormat. */
export function DateField(props: FieldProps<string>) {
  const { field, value, mode, onChange } = props;
  const text = asText(value);
  if (mode === 'preview') return <PreviewText field={field} text={formatDateDisplay(text, displayFormat(field))} />;
  return (
    <DayInput
      id={fieldInputId(field.id)}
      type="date"
      inputValue={convert(text, [dateValueFormat], dateValueFormat)}
      props={props as FieldProps<never>}
      onInput={(typed) => onChange(convert(typed, [dateValueFormat], dateValueFormat) || undefined)}
    />
  );
}

/** A day and time: value yyyy-MM-dd HH:mm:ss. */
export function DateTimeField(props: FieldProps<string>) {
  const { field, value, mode, onChange } = props;
  const text = asText(value);
  if (mode === 'preview') {
    return <PreviewText field={field} text={formatDateDisplay(text, displayFormat(field) ?? `${defaultDateDisplayFormat} HH:mm:ss`)} />;
  }
  return (
    <DayInput
      id={fieldInputId(field.id)}
      type="datetime-local"
      inputValue={convert(text, [dateTimeValueFormat], dateTimeInputFormats[0]!)}
      props={props as FieldProps<never>}
      onInput={(typed) => onChange(convert(typed, dateTimeInputFormats, dateTimeValueFormat) || undefined)}
    />
  );
}

/** Two days, each yyyy/MM/dd; a half-filled range keeps its empty side ('') until filled. */
export function DateRangeField(props: FieldProps<DateRangeValue>) {
  const { t } = useTranslation();
  const { field, value, mode, onChange } = props;
  const range: DateRangeValue = Array.isArray(value) ? [asText(value[0]), asText(value[1])] : ['', ''];
  if (mode === 'preview') {
    const text = range[0] && range[1] ? formatDateRangeDisplay(range, displayFormat(field)) : '';
    return <PreviewText field={field} text={text} />;
  }
  const edit = (side: 0 | 1) => (typed: string) => {
    const next: DateRangeValue = [...range];
    next[side] = convert(typed, [dateValueFormat], dateRangeValueFormat);
    onChange(next[0] === '' && next[1] === '' ? undefined : next);
  };
  return (
    <ControlGroup>
      <DayInput
        id={fieldInputId(field.id)}
        label={t('contractForm.startDate')}
        type="date"
        inputValue={convert(range[0], [dateRangeValueFormat], dateValueFormat)}
        props={props as FieldProps<never>}
        onInput={edit(0)}
      />
      <span className="contract-form__range-to">{t('contractForm.rangeTo')}</span>
      <DayInput
        id={`${fieldInputId(field.id)}-end`}
        label={t('contractForm.endDate')}
        type="date"
        inputValue={convert(range[1], [dateRangeValueFormat], dateValueFormat)}
        props={props as FieldProps<never>}
        onInput={edit(1)}
      />
    </ControlGroup>
  );
}
