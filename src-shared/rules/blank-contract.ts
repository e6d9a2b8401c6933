import type { FieldConfig } from '../domain/contract-forms';

// The blank contract's form (issue 29): 'New contract' without a template drafts on this built-in
// form. One definition read by the server (its values' rules and the terms the ledger shows), the
// core (the same checks offline, the rows it shows before sync) and the renderer (the form, its
// labels from the i18n catalogs by field id). It is no template row, so nobody can edit it away.
// The contract's name is the draft's own name input, as on any form without a name field. Field
// names are the spec's Chinese vocabulary, which the terms rule (contract-terms.ts) reads.

export type BlankContractFieldId = 'contractType' | 'contractNumber' | 'counterparty' | 'amount' | 'signDate' | 'period' | 'responsiblePerson' | 'department' | 'attachment';

export const blankContractFields: readonly (FieldConfig & { id: BlankContractFieldId })[] = [
  { id: 'contractType', name: '合同类型', type: 'contractType' },
  { id: 'contractNumber', name: '合同编号', type: 'contractNumber', maxlength: 100 },
  { id: 'counterparty', name: '相对方', type: 'inputSelectV2', partyType: 2, counterpartMultiple: 1 },
  { id: 'amount', name: '合同金额', type: 'money', fieldConfig: { money: { isWordAmount: true, isWithUnit: true } }, alterEditStatus: 2 },
  { id: 'signDate', name: '签订日期', type: 'date' },
  { id: 'period', name: '合同期限', type: 'daterange', alterEditStatus: 2 },
  { id: 'responsiblePerson', name: '负责人', type: 'people' },
  { id: 'department', name: '所属部门', type: 'department' },
  { id: 'attachment', name: '合同附件', type: 'upload' },
];

