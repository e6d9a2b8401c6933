import { describe, expect, it } from 'vitest';
import { AgentInformationField } from '../../../src-renderer/features/contract-form/fields/complex/agent/AgentInformationField';
import { ClauseField } from '../../../src-renderer/features/contract-form/fields/complex/clause/ClauseField';
import { ContractNumberField } from '../../../src-renderer/features/contract-form/fields/complex/contract-number/ContractNumberField';
import { PartyPicker } from '../../../src-renderer/features/contract-form/fields/complex/parties/PartyPicker';
import { ProjectField } from '../../../src-renderer/features/contract-form/fields/complex/project/ProjectField';
import { RelatedContractsField } from '../../../src-renderer/features/contract-form/fields/complex/related-contracts/RelatedContractsField';
import { SheetTableField } from '../../../src-renderer/features/contract-form/fields/complex/sheet/SheetTableField';
import { UploadField } from '../../../src-renderer/features/contract-form/fields/complex/upload/UploadField';
import { basicFields } from '../../../src-renderer/features/contract-form/fields/basic';
import { complexFields } from '../../../src-renderer/features/contract-form/fields/complex';
import { fieldComponents } from '../../../src-renderer/features/contract-form/fields/registry';

describe('complex field registry', () => {
  it('maps each complex field type to its component', () => {
    expect(complexFields).toEqual({
      inputSelect: PartyPicker,
      inputSelectV2: PartyPicker,
      contractNumber: ContractNumberField,
      clause: ClauseField,
      agentInformation: AgentInformationField,
      relatedContracts: RelatedContractsField,
      sheetTable: SheetTableField,
      upload: UploadField,
      customAttachment: UploadField,
      relationProject: ProjectField,
    });
  });

  it('shares no type with the basic fields, so the registry keeps both', () => {
    const basic = new Set(Object.keys(basicFields));
    expect(Object.keys(complexFields).filter((type) => basic.has(type))).toEqual([]);
    for (const [type, component] of Object.entries(complexFields)) expect(fieldComponents[type as keyof typeof fieldComponents]).toBe(component);
  });
});
