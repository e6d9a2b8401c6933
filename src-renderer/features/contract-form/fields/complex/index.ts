import type { FieldType } from '../../../../../src-shared/domain/enums';
import type { FieldComponent } from '../../types';
import { PartyPicker } from './parties/PartyPicker';

/** Parties, agents, clauses, contract number, uploads, related contracts and the form's tables. */
export const complexFields: Partial<Record<FieldType, FieldComponent>> = {
  inputSelect: PartyPicker as FieldComponent,
  inputSelectV2: PartyPicker as FieldComponent,
};
