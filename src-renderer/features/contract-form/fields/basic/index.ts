import type { FieldType } from '../../../../../src-shared/domain/enums';
import type { FieldComponent } from '../../types';
import { CascaderField, CaseTypeField, ContractTypeField } from './CascaderFields';
import { BoolField, CheckboxField, MultiselectField, RadioField, SelectField } from './ChoiceFields';
import { DateField, DateRangeField, DateTimeField } from './DateFields';
import { MoneyField } from './MoneyField';
import { NumberField } from './NumberFields';
import { CustomField, ImagePreviewField, SystemTextField } from './ReadOnlyFields';
import { OfflineArchiveAddressField } from './OfflineArchiveAddressField';
import { BankAccountField, TextareaField, TextField } from './TextFields';

/** Inputs, choices, dates, money and calculated fields. */
export const basicFields: Partial<Record<FieldType, FieldComponent>> = {
  text: TextField,
  textarea: TextareaField,
  number: NumberField,
  money: MoneyField,
  date: DateField,
  daterange: DateRangeField,
  'date-time': DateTimeField,
  bool: BoolField,
  select: SelectField,
  multiselect: MultiselectField,
  radio: RadioField,
  checkbox: CheckboxField,
  cascader: CascaderField,
  caseType: CaseTypeField,
  contractType: ContractTypeField,
  bankAccount: BankAccountField,
  serialNumber: SystemTextField,
  templateName: SystemTextField,
  offlineArchiveAddress: OfflineArchiveAddressField,
  'image-preview': ImagePreviewField,
  custom: CustomField,
};
