import type { FieldProps } from '../../types';
import { SelectField } from './ChoiceFields';
import { TextField } from './TextFields';

/** Where the paper original is kept: one of the configured places when the field lists them, else text. */
export function OfflineArchiveAddressField(props: FieldProps<string>) {
  return props.field.options && props.field.options.length > 0 ? <SelectField {...(props as FieldProps<never>)} /> : <TextField {...props} />;
}
