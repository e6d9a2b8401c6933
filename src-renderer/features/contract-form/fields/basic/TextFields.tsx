import { InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { bankAccountMaxLength, sanitizeBankAccount } from '../../../../../src-shared/form/bank-account';
import { stripContractName } from '../../../../../src-shared/form/contract-name';
import { isContractNameField } from '../../../../../src-shared/form/editability';
import { textMaxLength } from '../../../../../src-shared/form/validation';
import type { FieldProps } from '../../types';
import { asText, fieldInputId, PreviewText, usePlaceholder } from './shared';

/** Text is cut at the field's maxlength, never beyond the spec's 1000 characters. */
const maxLengthOf = (maxlength: number | undefined) => Math.min(maxlength ?? textMaxLength, textMaxLength);
const blankToUndefined = (text: string) => (text === '' ? undefined : text);

interface LineInputProps extends FieldProps<string> {
  maxLength: number;
  /** What the input keeps of the typed text (sanitising as typed). */
  keep(typed: string): string;
}

function LineInput({ field, value, mode, error, onChange, onBlur, maxLength, keep }: LineInputProps) {
  const placeholder = usePlaceholder(field);
  if (mode === 'preview') return <PreviewText field={field} text={asText(value)} />;
  return (
    <InputGroup
      id={fieldInputId(field.id)}
      value={asText(value)}
      maxLength={maxLength}
      placeholder={placeholder}
      disabled={mode === 'disabled'}
      intent={error ? Intent.DANGER : Intent.NONE}
      onValueChange={(typed) => onChange(blankToUndefined(keep(typed)))}
      onBlur={onBlur}
    />
  );
}

/** Single-line text; the field named 'contract name' loses file-name characters as typed (spec 5). */
export function TextField(props: FieldProps<string>) {
  const keep = isContractNameField(props.field) ? stripContractName : (typed: string) => typed;
  return <LineInput {...props} maxLength={maxLengthOf(props.field.maxlength)} keep={keep} />;
}

/** Bank account: letters, digits, hyphens, dashes and underscores, 9 to 24 characters (spec 5). */
export function BankAccountField(props: FieldProps<string>) {
  const max = props.field.maxlength ?? bankAccountMaxLength;
  return <LineInput {...props} maxLength={max} keep={(typed) => sanitizeBankAccount(typed, max)} />;
}

/** Multi-line text: 3 rows (spec 9), with the characters left. */
export function TextareaField({ field, value, mode, error, onChange, onBlur }: FieldProps<string>) {
  const { t } = useTranslation();
  const placeholder = usePlaceholder(field);
  const text = asText(value);
  if (mode === 'preview') return <PreviewText field={field} text={text} />;
  const max = maxLengthOf(field.maxlength);
  return (
    <>
      <TextArea
        id={fieldInputId(field.id)}
        rows={3}
        fill
        value={text}
        maxLength={max}
        placeholder={placeholder}
        disabled={mode === 'disabled'}
        intent={error ? Intent.DANGER : Intent.NONE}
        onChange={(event) => onChange(blankToUndefined(event.currentTarget.value))}
        onBlur={onBlur}
      />
      <div className="contract-form__count" data-testid={`count-${field.id}`}>
        {t('contractForm.characterCount', { count: text.length, max })}
      </div>
    </>
  );
}
