import type { FieldType } from '../../../../src-shared/domain/enums';
import type { FieldComponent } from '../types';
import { basicFields } from './basic';
import { complexFields } from './complex';
import { directoryFields } from './directory';

/** The component each field type renders with (spec 3, "Field types"). */
export const fieldComponents: Partial<Record<FieldType, FieldComponent>> = { ...basicFields, ...complexFields, ...directoryFields };
