import { Intent } from '@blueprintjs/core';
import { DateInput as BlueprintDateInput, TimePrecision } from '@blueprintjs/datetime';
import { enUS, zhCN } from 'date-fns/locale';
import { DateTime } from 'luxon';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeValueFormat, dateValueFormat } from '../../src-shared/form/dates';
import { dayFormat, dayTimeFormat, parseTypedDay } from '../../src-shared/i18n/days';

// Blueprint's date picker in the UI language, never the browser's native date input (UI.md).
// Values go in and out as the form stores them: yyyy-MM-dd, or yyyy-MM-dd HH:mm:ss with a time.

const pickerLocales = { 'zh-CN': zhCN, en: enUS };
// Contracts run for decades; Blueprint's default range ends months from now.
const minDate = new Date(1900, 0, 1);
const maxDate = new Date(2100, 11, 31);

export interface DateInputProps {
  id?: string;
  label?: string;
  /** yyyy-MM-dd (with time: yyyy-MM-dd HH:mm:ss), or '' for none. */
  value: string;
  withTime?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  placeholder?: string;
  /** The small input, beside the small inputs of a table's row. */
  small?: boolean;
  onChange(value: string | null): void;
  onBlur?(): void;
}

export function DateInput({ id, label, value, withTime = false, disabled, invalid, placeholder, small, onChange, onBlur }: DateInputProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  const display = withTime ? dayTimeFormat(language) : dayFormat(language);
  const valueFormat = withTime ? dateTimeValueFormat : dateValueFormat;
  const day = DateTime.fromFormat(value, valueFormat);
  // Escape while the picker is open closes the picker only: the dialog around it (which closes on
  // Escape too) stays open with what was typed.
  const pickerOpen = useRef(false);
  return (
    <span
      className="date-input"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && pickerOpen.current) event.stopPropagation();
      }}
    >
    <BlueprintDateInput
      value={day.isValid ? value.replace(' ', 'T') : null}
      onChange={(iso) => onChange(iso ? DateTime.fromISO(iso, { setZone: true }).toFormat(valueFormat) : null)}
      formatDate={(date) => DateTime.fromJSDate(date).setLocale(language).toFormat(display)}
      parseDate={(text) => parseTypedDay(text, display, language, withTime)?.toJSDate() ?? false}
      locale={pickerLocales[language]}
      timePrecision={withTime ? TimePrecision.SECOND : undefined}
      minDate={minDate}
      maxDate={maxDate}
      disabled={disabled}
      fill
      showActionsBar
      todayButtonText={t('dateInput.today')}
      clearButtonText={t('dateInput.clear')}
      invalidDateMessage={t('form.invalidDate')}
      outOfRangeMessage={t('dateInput.outOfRange')}
      // A hint, never an example day: an example reads as a value already chosen.
      placeholder={placeholder ?? t(withTime ? 'dateInput.placeholderWithTime' : 'dateInput.placeholder')}
      inputProps={{ id, 'aria-label': label, intent: invalid ? Intent.DANGER : Intent.NONE, onBlur, ...(small && { size: 'small' as const }) }}
      popoverProps={{
        placement: 'bottom-start',
        onOpening: () => (pickerOpen.current = true),
        onClosed: () => (pickerOpen.current = false),
      }}
    />
    </span>
  );
}
