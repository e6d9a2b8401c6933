import type { FieldType } from '../../../../../src-shared/domain/enums';
import type { FieldComponent } from '../../types';
import { AgentInformationField } from './agent/AgentInformationField';
import { ClauseField } from './clause/ClauseField';
import { ContractNumberField } from './contract-number/ContractNumberField';
import { PartyPicker } from './parties/PartyPicker';
import { ProjectField } from './project/ProjectField';
import { RelatedContractsField } from './related-contracts/RelatedContractsField';
import { SheetTableField } from './sheet/SheetTableField';
import { UploadField } from './upload/UploadField';

/** Parties, agents, clauses, contract number, uploads, related contracts and the form's tables. */
export const complexFields: Partial<Record<FieldType, FieldComponent>> = {
  inputSelect: PartyPicker as FieldComponent,
  inputSelectV2: PartyPicker as FieldComponent,
  contractNumber: ContractNumberField as FieldComponent,
  clause: ClauseField as FieldComponent,
  agentInformation: AgentInformationField as FieldComponent,
  relatedContracts: RelatedContractsField as FieldComponent,
  sheetTable: SheetTableField as FieldComponent,
  upload: UploadField as FieldComponent,
  customAttachment: UploadField as FieldComponent,
  relationProject: ProjectField as FieldComponent,
};

/** The contract detail's cooperation-information table (not a field type: the detail screen places it). */
export { CooperationInfoTable } from './cooperation/CooperationInfoTable';
