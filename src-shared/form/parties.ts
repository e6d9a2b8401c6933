import { CreditRating, PartySubtype, PartyType } from '../domain/enums';
import type { CounterpartSearchResult, FormField, PartyValue } from './field-config';
import { fail, formMessage, ok, type FormMessage, type RuleResult } from './messages';

// Party (counterpart) pickers: spec 3 "Values", spec 4, spec 5 "Party dropdown" and spec 9.

export const maxPartiesPerField = 10;
export const counterpartSearchDebounceMs = 750;
/** Law firms are listed in one page of 100 (spec 9). */
export const lawFirmPage = { pageSize: 100, pageNum: 1 } as const;
/** The id of a party being typed in that is not yet a counterparty. */
export const newPartyId = 0;

export function newBlankParty(): PartyValue {
  return { id: newPartyId, name: '' };
}

const isChosen = (id: PartyValue['id'] | null | undefined): id is PartyValue['id'] => id !== undefined && id !== null && id !== newPartyId && id !== '';

/**
 * Adds a party to a field, refusing the eleventh; a party already there is not added twice. A
 * field of one party (counterpartMultiple 1, spec 4) takes the added party in place of the one it
 * holds, so choosing another or adding a new one is never silently dropped.
 */
export function addParty(parties: readonly PartyValue[], party: PartyValue, counterpartMultiple?: number): RuleResult<PartyValue[]> {
  if (counterpartMultiple === 1) return ok([party]);
  if (isChosen(party.id) && parties.some((p) => p.id === party.id)) return ok([...parties]);
  if (parties.length >= maxPartiesPerField) return fail('maxParties');
  return ok([...parties, party]);
}

/** The parties a multi-select picker holds: counterpartMultiple 1 keeps only the first (spec 4). */
export function selectCounterparts(selected: readonly PartyValue[], counterpartMultiple?: number): RuleResult<PartyValue[]> {
  if (counterpartMultiple === 1) return ok(selected.slice(0, 1));
  if (selected.length > maxPartiesPerField) return fail('maxParties');
  return ok([...selected]);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The first entry of a search result's list (its banks, its contacts), as a record. */
const firstOf = (list: readonly unknown[] | undefined): Record<string, unknown> => (list && isRecord(list[0]) ? list[0] : {});

/**
 * A counterpart search result as a party value: the party's own details (spec 3, party value:
 * keyword, subtype, contactsName, contactsPhone) filled from its fieldDetailMap and first contact.
 */
export function partyFromSearchResult(result: CounterpartSearchResult): PartyValue {
  const detail = result.fieldDetailMap ?? {};
  const contact = firstOf(result.contactItemList);
  const keyword = textOf(detail.keyword);
  const contactsName = textOf(contact.name);
  const contactsPhone = textOf(contact.phone);
  const subtype = detail.subtype === PartySubtype.Organization || detail.subtype === PartySubtype.NaturalPerson ? detail.subtype : undefined;
  return {
    id: result.id,
    name: result.name,
    ...(keyword && { keyword }),
    ...(subtype && { subtype }),
    ...(contactsName && { contactsName }),
    ...(contactsPhone && { contactsPhone }),
  };
}

/** The details a party's detail field may show (its `tag`): the search result's fieldDetailMap keys, and these from its first bank and contact. */
const bankDetails = { bankName: 'name', bankAccount: 'account', accountName: 'accountName' } as const;
const contactDetails = { contactName: 'name', contactPhone: 'phone', contactEmail: 'email' } as const;

/**
 * The values a chosen counterpart gives the party's detail fields (spec 3, counterpart search
 * result): the form's fields whose `subjectGroup` is the party field's key (`partyFieldKey`, built
 * from the organisation id, spec 6; or the party field's own id), each by the detail its `tag`
 * names: a key of fieldDetailMap, bankName / bankAccount / accountName of its first bank, or
 * contactName / contactPhone / contactEmail of its first contact. A bank-account field without a
 * tag takes the first bank's account. Details the counterpart lacks leave their fields as they are.
 */
export function partyDetailValues(
  fields: readonly Pick<FormField, 'id' | 'type' | 'tag' | 'subjectGroup'>[],
  groupKeys: readonly string[],
  result: CounterpartSearchResult,
): Record<string, unknown> {
  const bank = firstOf(result.bankItemList);
  const contact = firstOf(result.contactItemList);
  const detail = result.fieldDetailMap ?? {};
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.subjectGroup === undefined || !groupKeys.includes(String(field.subjectGroup))) continue;
    const tag = typeof field.tag === 'string' ? field.tag : field.type === 'bankAccount' ? 'bankAccount' : undefined;
    if (tag === undefined) continue;
    const value =
      tag in bankDetails ? bank[bankDetails[tag as keyof typeof bankDetails]] : tag in contactDetails ? contact[contactDetails[tag as keyof typeof contactDetails]] : detail[tag];
    if (typeof value === 'string' ? value !== '' : typeof value === 'number' || typeof value === 'boolean') values[field.id] = value;
  }
  return values;
}

/** Why choosing a counterparty deserves a warning: on the blacklist (rating 40, spec 4), or with risks reported. */
export type PartyRisk = 'blacklisted' | 'risky';

export function partyRisk(detail: { rating?: unknown; riskCount?: unknown } | undefined): PartyRisk | null {
  if (detail?.rating === CreditRating.Blacklist) return 'blacklisted';
  return typeof detail?.riskCount === 'number' && detail.riskCount > 0 ? 'risky' : null;
}

const partyFieldTypes: readonly string[] = ['inputSelect', 'inputSelectV2'];

/** A field of the form that holds parties. */
export const isPartyField = (field: { type: string }): boolean => partyFieldTypes.includes(field.type);

type PartyFieldConfig = { id: string; type: string; partyType?: number | undefined };

/** Each party field's parties, with the field. */
function partiesByField<F extends PartyFieldConfig>(fields: readonly F[], values: Readonly<Record<string, unknown>>): { field: F; parties: unknown[] }[] {
  return fields.flatMap((field) => (isPartyField(field) && Array.isArray(values[field.id]) ? [{ field, parties: values[field.id] as unknown[] }] : []));
}

/**
 * The form values as a save sends them: each party typed in (id 0) with a name gets its
 * counterparty's id now (`newId`, a UUID the desktop makes) and the `isNew` mark, so the draft
 * queued offline names the counterparty the server will make with it, exactly once.
 */
export function withNewPartyIds<F extends PartyFieldConfig>(fields: readonly F[], values: Readonly<Record<string, unknown>>, newId: () => string): Record<string, unknown> {
  const next = { ...values };
  for (const { field, parties } of partiesByField(fields, values)) {
    next[field.id] = parties.map((party) =>
      isRecord(party) && party.id === newPartyId && typeof party.name === 'string' && party.name.trim() !== '' ? { ...party, name: party.name.trim(), id: newId(), isNew: true } : party,
    );
  }
  return next;
}

/** A party to make a counterparty of: its id, name and details, and the party type of its field (outer unless the field says). */
export interface NewParty {
  fieldId: string;
  partyType: PartyType;
  party: PartyValue & { id: string };
}

/** The parties marked new in these values (each id once). */
export function newPartiesIn<F extends PartyFieldConfig>(fields: readonly F[], values: Readonly<Record<string, unknown>>): NewParty[] {
  const found = new Map<string, NewParty>();
  for (const { field, parties } of partiesByField(fields, values)) {
    for (const party of parties) {
      if (!isRecord(party) || party.isNew !== true || typeof party.id !== 'string' || found.has(party.id)) continue;
      found.set(party.id, { fieldId: field.id, partyType: field.partyType === PartyType.Inner ? PartyType.Inner : PartyType.Outer, party: party as PartyValue & { id: string } });
    }
  }
  return [...found.values()];
}

/** The values as stored once their new parties are counterparties: the `isNew` marks gone. */
export function withoutNewMarks<F extends PartyFieldConfig>(fields: readonly F[], values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const next = { ...values };
  for (const { field, parties } of partiesByField(fields, values)) {
    next[field.id] = parties.map((party) => {
      if (!isRecord(party) || party.isNew !== true) return party;
      const { isNew: _isNew, ...kept } = party;
      return kept;
    });
  }
  return next;
}

/** The query of a counterpart search (sent debounced by 750 ms); nothing to search for blank text. */
export function counterpartSearchQuery(typed: string, partyType: PartyType): { abbr: string; type: PartyType } | null {
  const abbr = typed.trim();
  return abbr === '' ? null : { abbr, type: partyType };
}

/** Required party field, checked on blur: 'please enter' + the field name when no party or a nameless one. */
export function validateRequiredParty(
  field: Pick<FormField, 'name' | 'required'>,
  value: readonly PartyValue[] | PartyValue | null | undefined,
): FormMessage | null {
  if (!field.required) return null;
  const parties = value == null ? [] : Array.isArray(value) ? value : [value as PartyValue];
  if (parties.length === 0 || parties.some((p) => p.name.trim() === '')) return formMessage('pleaseEnter', { name: field.name });
  return null;
}

/** The score dialog scores the first chosen external party; none chosen → 'please select an external party first'. */
export function partyToScore(parties: readonly PartyValue[]): RuleResult<PartyValue> {
  const party = parties.find((p) => isChosen(p.id));
  return party ? ok(party) : fail('selectExternalPartyFirst');
}

/** The party detail preview needs the party's id, otherwise 'no data'. */
export function partyDetailId(id: PartyValue['id'] | null | undefined): RuleResult<PartyValue['id']> {
  return isChosen(id) ? ok(id) : fail('noData');
}

/** Organisation-share (external) environments hide the party detail link (spec 2). */
export function showsPartyDetailLink(organisationShare: boolean): boolean {
  return !organisationShare;
}

/** The form key under which an organisation's party field keeps its value. */
export function partyFieldKey(organisationId: string | number): string {
  return `counterpart_${organisationId}`;
}
