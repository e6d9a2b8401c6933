import { ControlGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { dateRangeValueFormat, dateValueFormat, parseDate, type DateRangeValue } from '../../../../../src-shared/form/dates';
import { DateInput } from '../../../../i18n/DateInput';
import { formatDay, formatDayRange, formatDayTime } from '../../../../i18n/format';
import type { FieldProps } from '../../types';
import { asText, fieldInputId, PreviewText, usePlaceholder } from './shared';

// Dates use Blueprint's date picker in the UI language; values keep the spec's formats (spec 9):
// a day yyyy-MM-dd, a date-time yyyy-MM-dd HH:mm:ss, a range's bounds yyyy/MM/dd.

/** Converts a day between two value formats; '' when the text is not a real day in the first. */
function convert(text: string, from: string, to: string): string {
  const parsed = parseDate(text, from);
  return parsed.ok ? parsed.value.toFormat(to) : '';
}

const displayFormat = (field: FieldProps['field']) => field.fieldConfig?.date?.dateFormat;

/** A day: value yyyy-MM-dd, shown yyyy年MM月dd日 (English d MMM yyyy) or in the field's dateFormat. */
export function DateField(props: FieldProps<string>) {
  return <DayField props={props} withTime={false} />;
}

/** A day and time: value yyyy-MM-dd HH:mm:ss. */
export function DateTimeField(props: FieldProps<string>) {
  return <DayField props={props} withTime />;
}

function DayField({ props, withTime }: { props: FieldProps<string>; withTime: boolean }) {
  const { i18n } = useTranslation();
  const { field, value, mode, error, onChange, onBlur } = props;
  const placeholder = usePlaceholder(field, 'pleaseSelect');
  const text = asText(value);
  if (mode === 'preview') {
    const format = withTime ? formatDayTime : formatDay;
    return <PreviewText field={field} text={format(text, i18n.language, displayFormat(field))} />;
  }
  return (
    <DateInput
      id={fieldInputId(field.id)}
      label={field.name}
      value={text}
      withTime={withTime}
      disabled={mode === 'disabled'}
      invalid={Boolean(error)}
      placeholder={placeholder}
      onChange={(picked) => onChange(picked ?? undefined)}
      onBlur={onBlur}
    />
  );
}

/** Two days, each yyyy/MM/dd; a half-filled range keeps its empty side ('') until filled. */
export function DateRangeField(props: FieldProps<DateRangeValue>) {
  const { t, i18n } = useTranslation();
  const { field, value, mode, error, onChange, onBlur } = props;
  const range: DateRangeValue = Array.isArray(value) ? [asText(value[0]), asText(value[1])] : ['', ''];
  if (mode === 'preview') {
    const text = range[0] && range[1] ? formatDayRange(range, i18n.language, displayFormat(field)) : '';
    return <PreviewText field={field} text={text} />;
  }
  const edit = (side: 0 | 1) => (picked: string | null) => {
    const next: DateRangeValue = [...range];
    next[side] = picked ? convert(picked, dateValueFormat, dateRangeValueFormat) : '';
    onChange(next[0] === '' && next[1] === '' ? undefined : next);
  };
  const side = (index: 0 | 1, id: string, label: string) => (
    <DateInput
      id={id}
      label={label}
      value={convert(range[index], dateRangeValueFormat, dateValueFormat)}
      disabled={mode === 'disabled'}
      invalid={Boolean(error)}
      placeholder={label}
      onChange={edit(index)}
      onBlur={onBlur}
    />
  );
  return (
    <ControlGroup>
      {side(0, fieldInputId(field.id), t('contractForm.startDate'))}
      <span className="contract-form__range-to">{t('contractForm.rangeTo')}</span>
      {side(1, `${fieldInputId(field.id)}-end`, t('contractForm.endDate'))}
    </ControlGroup>
  );
}
