import type { PartyType } from '../domain/enums';
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

/** Adds a party to a field, refusing the eleventh; a party already there is not added twice. */
export function addParty(parties: readonly PartyValue[], party: PartyValue): RuleResult<PartyValue[]> {
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

/** A counterpart search result as a party value. */
export function partyFromSearchResult(result: CounterpartSearchResult): PartyValue {
  return { id: result.id, name: result.name };
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
