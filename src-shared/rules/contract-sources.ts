import { PartyType } from '../domain/enums';

// Where a performance sheet column's cells may come from in the contract (spec 5 "extraction and
// relate-field"): which contract form fields suit a column of each type. The sheet editor offers
// them for extraction, the definitions editor for a column to follow, and the definition rules
// refuse a column following a field of another kind.

/** The contract form field types whose value a column of each relatable type takes as it is. */
const sourceTypes: Readonly<Record<string, readonly string[]>> = {
  number: ['number'],
  money: ['money'],
  date: ['date'],
  text: ['text', 'textarea'],
  textarea: ['text', 'textarea'],
  outerParty: ['inputSelect', 'inputSelectV2'],
  innerParty: ['inputSelect', 'inputSelectV2'],
};

/** What a contract form field needs to be offered to a column. */
export interface SourceField {
  id: string;
  name: string;
  type: string;
  partyType?: number | undefined;
}

/**
 * The basic contract form fields of the standard templates (src-server/contract-forms/seed.ts:
 * every one has them, the amount those of priced contract types), by the ids the contract's form
 * values keep them under: the fields a definition's column may follow whatever template its
 * contract was drafted from (the server's related cells read them there).
 */
export const basicContractFields = [
  { id: 'contractName', name: 'contract name', type: 'text' },
  { id: 'counterparty', name: 'counterparty', type: 'inputSelectV2', partyType: PartyType.Outer },
  { id: 'amount', name: 'contract amount', type: 'money' },
  { id: 'signDate', name: 'signing date', type: 'date' },
  { id: 'subject', name: 'contract subject', type: 'textarea' },
  { id: 'remark', name: 'remark', type: 'textarea' },
] as const satisfies readonly SourceField[];

export type BasicContractFieldId = (typeof basicContractFields)[number]['id'];

/** The contract's fields a column may take its cells from: of a kind it holds, parties of its side. */
export function sourceFieldsFor<F extends SourceField>(column: { type: string }, fields: readonly F[]): F[] {
  const types = Object.prototype.hasOwnProperty.call(sourceTypes, column.type) ? sourceTypes[column.type]! : [];
  const side = column.type === 'outerParty' ? PartyType.Outer : column.type === 'innerParty' ? PartyType.Inner : undefined;
  return fields.filter((field) => types.includes(field.type) && (side === undefined || field.partyType === undefined || field.partyType === side));
}
