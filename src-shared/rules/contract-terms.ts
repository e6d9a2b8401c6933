import type { FieldConfig } from '../domain/contract-forms';
import type { FieldType } from '../domain/enums';
import { PartyType } from '../domain/enums';
import { moneySchema, type Money } from '../domain/money';
import type { Contract } from '../domain/contract';
import { AppFailure, reason } from '../errors';

// The key terms a contract's ledger row and header show (type, counterparty, amount, signing date) are
// kept in columns beside the form values. They are read from the template's fields by this one
// rule, which the server applies on every write of form values, the seed applies to its demo
// contracts and the desktop applies to the rows it shows before the server has answered.

type TermField = Pick<FieldConfig, 'id' | 'name' | 'type' | 'rawType' | 'partyType'>;

interface TermRule {
  types: readonly FieldType[];
  /** The field names (spec vocabulary, Chinese and English) and rawTypes that mark the term's field. */
  names: readonly string[];
  /** Whether the only field of the types may stand for the term when none is named for it. */
  onlyOfType: boolean;
}

const termRules = {
  contractType: { types: ['contractType'], names: ['合同类型', 'contract type'], onlyOfType: true },
  counterparty: { types: ['inputSelectV2', 'inputSelect'], names: ['相对方', 'counterparty', 'counterpart'], onlyOfType: true },
  amount: { types: ['money'], names: ['合同金额', 'contract amount', 'amount'], onlyOfType: true },
  // Contracts have many dates (start, end, delivery): only a field named for signing counts.
  signDate: { types: ['date'], names: ['签订日期', '签约日期', 'signing date', 'sign date', 'signDate'], onlyOfType: false },
} as const satisfies Record<string, TermRule>;

export type ContractTerm = keyof typeof termRules;

const normalise = (text: string) => text.trim().toLowerCase();

/**
 * The field that holds a term in these fields: one whose name or rawType names the term, else
 * (where the rule allows it) the only field of the term's types. A counterparty is an outer party
 * (party type 2) unless the field says nothing of its party type.
 */
export function termField<F extends TermField>(fields: readonly F[], term: ContractTerm): F | undefined {
  const rule: TermRule = termRules[term];
  const names = new Set(rule.names.map(normalise));
  const candidates = fields.filter(
    (field) => rule.types.includes(field.type) && (term !== 'counterparty' || field.partyType === undefined || field.partyType === PartyType.Outer),
  );
  const named = candidates.find((field) => names.has(normalise(field.name)) || (field.rawType !== undefined && names.has(normalise(field.rawType))));
  if (named) return named;
  return rule.onlyOfType && candidates.length === 1 ? candidates[0] : undefined;
}

/** The first chosen party of a party value: its counterparty id (absent for one typed in) and name. */
export interface TermParty {
  id: string | null;
  name: string;
}

export interface ContractTerms {
  /** The contract type chosen in the form (the contract's type, and so its numbering rule). */
  contractTypeId?: string | null;
  /** undefined: the template has no field for the term, so the column is not the form's to set. */
  counterparty?: TermParty | null;
  amount?: Money | null;
  signDate?: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function partyOf(value: unknown): TermParty | null {
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  if (!isRecord(first) || typeof first.name !== 'string' || first.name.trim() === '') return null;
  // A party typed in, not chosen from the counterparties, has id 0 (spec 3).
  return { id: typeof first.id === 'string' && first.id !== '' ? first.id : null, name: first.name.trim() };
}

function moneyOf(value: unknown): Money | null {
  const parsed = moneySchema.safeParse(value);
  return parsed.success ? { amount: parsed.data.amount, unit: parsed.data.unit } : null;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The terms these form values give, for the terms the fields hold. Values are expected to have
 * passed the form rules; a value of the wrong shape gives no term rather than a wrong one.
 */
export function contractTerms(fields: readonly TermField[], values: Readonly<Record<string, unknown>>): ContractTerms {
  const terms: ContractTerms = {};
  const contractType = termField(fields, 'contractType');
  if (contractType) {
    const value = values[contractType.id];
    terms.contractTypeId = typeof value === 'string' && value !== '' ? value : null;
  }
  const counterparty = termField(fields, 'counterparty');
  if (counterparty) terms.counterparty = partyOf(values[counterparty.id]);
  const amount = termField(fields, 'amount');
  if (amount) terms.amount = moneyOf(values[amount.id]);
  const signDate = termField(fields, 'signDate');
  if (signDate) {
    const value = values[signDate.id];
    terms.signDate = typeof value === 'string' && dayPattern.test(value) ? value : null;
  }
  return terms;
}

/**
 * The contract's type: the one chosen in the form, else the one given beside it (the template's,
 * or the contract's as stored), as the server stores it on every write of form values.
 */
export function contractTypeOf(fields: readonly TermField[], values: Readonly<Record<string, unknown>>, given: string | null): string | null {
  return contractTerms(fields, values).contractTypeId ?? given;
}

/**
 * The terms as the ledger's row shows them (`Contract`, with the counterparty's id the replica
 * keeps), for the terms the fields hold: what the desktop shows on a row it changed before the
 * server answers. The server stores a counterparty by id and shows that counterparty's name,
 * which is the chosen party's.
 */
export function ledgerTerms(
  fields: readonly TermField[],
  values: Readonly<Record<string, unknown>>,
): Partial<Pick<Contract, 'counterpartName' | 'amount' | 'signDate'> & { counterpartyId: string | null }> {
  const terms = contractTerms(fields, values);
  return {
    ...(terms.counterparty !== undefined && { counterpartName: terms.counterparty?.name ?? null, counterpartyId: terms.counterparty?.id ?? null }),
    ...(terms.amount !== undefined && { amount: terms.amount }),
    ...(terms.signDate !== undefined && { signDate: terms.signDate }),
  };
}

/** The columns an edit of a contract (contract.update's patch) may set beside its form, with the term each is. */
const directTerms = { signDate: 'signDate', amount: 'amount', contractTypeId: 'contractType' } as const satisfies Record<string, ContractTerm>;

/** The terms in the wire's English (the user reads them from the reasons catalog). */
const termWords = { signDate: 'signing date', amount: 'contract amount', contractType: 'contract type' } as const;

export type DirectTermPatch = { signDate?: string | null; amount?: Money | null; contractTypeId?: string | null };

const sameMoney = (a: Money | null, b: Money | null) => a === b || (a !== null && b !== null && a.amount === b.amount && a.unit === b.unit);

/**
 * The columns a patch sets directly to another value than the contract's form gives, where the
 * form holds the term: there the form is where the term is kept. Every write of form values
 * derives the column from the form again, so such an edit would last only until the next one, and
 * meanwhile the contract would show one signing date in its ledger row and none in its form. A
 * type the form leaves empty is not the form's: a type given beside it stays. `formValues`: the
 * form as the patch leaves it.
 */
export function termsHeldByForm(fields: readonly TermField[], formValues: Readonly<Record<string, unknown>>, patch: DirectTermPatch): (keyof typeof directTerms)[] {
  const terms = contractTerms(fields, formValues);
  const held: (keyof typeof directTerms)[] = [];
  if (patch.signDate !== undefined && terms.signDate !== undefined && patch.signDate !== terms.signDate) held.push('signDate');
  if (patch.amount !== undefined && terms.amount !== undefined && !sameMoney(patch.amount, terms.amount)) held.push('amount');
  if (patch.contractTypeId !== undefined && terms.contractTypeId && patch.contractTypeId !== terms.contractTypeId) held.push('contractTypeId');
  return held;
}

/**
 * Refuses a patch that sets a term its form holds (`termsHeldByForm`): the server refuses it, and
 * the desktop at once where it knows the contract's form, so that no such edit is reported
 * applied and then lost.
 */
export function refuseTermsHeldByForm(fields: readonly TermField[], formValues: Readonly<Record<string, unknown>>, patch: DirectTermPatch): void {
  const held = termsHeldByForm(fields, formValues, patch);
  if (held.length === 0) return;
  const issues = held.map((key) => ({ path: `patch.${key}`, message: `the ${termWords[directTerms[key]]} is a field of this contract's form: change it in the form` }));
  throw new AppFailure('validation_failed', `validation failed: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`, issues, reason('termInForm', { term: directTerms[held[0]!] }));
}
