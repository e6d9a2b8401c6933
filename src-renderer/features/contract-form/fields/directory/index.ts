import type { FieldType } from '../../../../../src-shared/domain/enums';
import type { FieldComponent } from '../../types';
import { DepartmentField, PeopleField } from './DirectoryPickerField';

/** People and departments, chosen from the organisation's directory. */
export const directoryFields: Partial<Record<FieldType, FieldComponent>> = {
  people: PeopleField,
  department: DepartmentField,
};
