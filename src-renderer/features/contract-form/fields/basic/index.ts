import type { FieldType } from '../../../../../src-shared/domain/enums';
import type { FieldComponent } from '../../types';

/** Inputs, choices, dates, money and calculated fields. */
export const basicFields: Partial<Record<FieldType, FieldComponent>> = {};
