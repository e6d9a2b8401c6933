import { ControlGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyUnits, type Money } from '../../../../../src-shared/domain/money';
import { hasAmount } from '../../../../../src-shared/form/field-config';
import type { FormMessage } from '../../../../../src-shared/form/messages';
import { amountInWords, amountToInput, moneyDisplay, parseAmountInput } from '../../../../../src-shared/form/money';
import { formMessageText } from '../../messageText';
import type { FieldProps } from '../../types';
import { fieldInputId, PreviewText, usePlaceholder } from './shared';

const defaultUnit = currencyUnits[0];
/** Typing a third decimal does nothing: amounts keep hundredths (cut, never rounded). */
const cutToCents = (typed: string) => typed.replace(/(\.\d{2})\d+/, '$1');

/** Money: hundredths plus a currency unit; the amount in words when isWordAmount (spec 3). */
export function MoneyField({ field, value, mode, error, onChange, onBlur }: FieldProps<Money | null>) {
  const { t } = useTranslation();
  const placeholder = usePlaceholder(field);
  const money = hasAmount(value) ? value : null;
  const amount = money?.amount ?? null;
  // The typed text survives re-renders ('12.' stays '12.'), and the chosen unit survives an
  // emptied amount (the value is then null); a value set from outside replaces both.
  const [draft, setDraft] = useState({ text: amountToInput(amount), amount, unit: money?.unit ?? defaultUnit });
  const [invalid, setInvalid] = useState<FormMessage | null>(null);
  if (draft.amount !== amount) setDraft({ text: amountToInput(amount), amount, unit: money?.unit ?? draft.unit });
  const unitLabel = (unit: string) => t(`contractForm.currencies.${unit}`, { defaultValue: unit });

  if (mode === 'preview') {
    if (!money) return <PreviewText field={field} text="" />;
    const shown = moneyDisplay(money, field, unitLabel);
    return (
      <PreviewText field={field} text={shown.unit ? `${shown.amount} ${shown.unit}` : shown.amount}>
        {shown.words && <div className="contract-form__words">{t('contractForm.amountInWords', { words: shown.words })}</div>}
      </PreviewText>
    );
  }
  const unit = money?.unit ?? draft.unit;
  const typeAmount = (typed: string) => {
    const text = cutToCents(typed);
    const parsed = parseAmountInput(text);
    if (!parsed.ok) {
      setInvalid(parsed.message);
      return;
    }
    setInvalid(null);
    setDraft({ text, amount: parsed.value, unit });
    onChange(parsed.value === null ? null : { amount: parsed.value, unit });
  };
  const disabled = mode === 'disabled';
  // A unit the server sent that this app does not list stays in the list as it is.
  const units = [...new Set<string>([...currencyUnits, unit])];
  return (
    <>
      <ControlGroup>
        <InputGroup
          id={fieldInputId(field.id)}
          inputMode="decimal"
          value={draft.text}
          placeholder={placeholder}
          disabled={disabled}
          intent={error || invalid ? Intent.DANGER : Intent.NONE}
          onValueChange={typeAmount}
          onBlur={onBlur}
        />
        <HTMLSelect
          aria-label={t('contractForm.currency')}
          value={unit}
          disabled={disabled}
          options={units.map((u) => ({ value: u, label: unitLabel(u) }))}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            setDraft({ ...draft, unit: chosen });
            if (money) onChange({ amount: money.amount, unit: chosen });
          }}
        />
      </ControlGroup>
      {invalid && (
        <div className="contract-form__field-message" role="alert" data-testid={`money-message-${field.id}`}>
          {formMessageText(t, invalid)}
        </div>
      )}
      {field.fieldConfig?.money?.isWordAmount && money && (
        <div className="contract-form__words" data-testid={`words-${field.id}`}>
          {t('contractForm.amountInWords', { words: amountInWords(money.amount, money.unit) })}
        </div>
      )}
    </>
  );
}
