import { describe, expect, it } from 'vitest';
import type { PartyValue } from '../../../src-shared/form/field-config';
import {
  addParty,
  counterpartSearchQuery,
  newBlankParty,
  partyDetailId,
  partyFieldKey,
  partyFromSearchResult,
  partyToScore,
  selectCounterparts,
  showsPartyDetailLink,
  validateRequiredParty,
} from '../../../src-shared/form/parties';

const party = (id: number, name = `party ${id}`): PartyValue => ({ id, name });
const parties = (n: number) => Array.from({ length: n }, (_, i) => party(i + 1));

describe('adding parties', () => {
  it.each([
    [0, true],
    [9, true],
    [10, false],
  ])('with %i parties already, adding one succeeds: %s', (count, succeeds) => {
    const added = addParty(parties(count), party(99));
    expect(added.ok).toBe(succeeds);
    if (added.ok) expect(added.value).toHaveLength(count + 1);
    else expect(added.message.text).toBe('At most 10 parties can be added');
  });

  it('does not add a chosen party twice', () => {
    expect(addParty(parties(10), party(3))).toEqual({ ok: true, value: parties(10) });
  });

  it('adds several blank parties with id 0', () => {
    const blank = newBlankParty();
    expect(blank).toEqual({ id: 0, name: '' });
    const once = addParty([], blank);
    expect(once.ok && addParty(once.value, newBlankParty()).ok && once.value).toHaveLength(1);
  });
});

describe('selecting counterparts', () => {
  it.each([
    [1, parties(3), parties(1)],
    [undefined, parties(3), parties(3)],
    [2, parties(10), parties(10)],
  ])('counterpartMultiple %j keeps the right parties', (counterpartMultiple, selected, kept) => {
    expect(selectCounterparts(selected, counterpartMultiple)).toEqual({ ok: true, value: kept });
  });

  it('refuses more than 10', () => {
    const selected = selectCounterparts(parties(11));
    expect(!selected.ok && selected.message.text).toBe('At most 10 parties can be added');
  });

  it('turns a search result into a party', () => {
    expect(partyFromSearchResult({ id: '7', name: 'ACME', fieldDetailMap: {} })).toEqual({ id: '7', name: 'ACME' });
  });

  it.each([
    ['  acme ', { abbr: 'acme', type: 2 }],
    ['   ', null],
  ])('searching %j sends %j', (typed, query) => {
    expect(counterpartSearchQuery(typed, 2)).toEqual(query);
  });
});

describe('required party field', () => {
  const field = { name: 'party A', required: true };
  it.each<[string, PartyValue[] | PartyValue | null | undefined, string | null]>([
    ['missing value', undefined, 'Please enter party A'],
    ['null', null, 'Please enter party A'],
    ['no parties', [], 'Please enter party A'],
    ['an empty name', [party(1), party(0, '  ')], 'Please enter party A'],
    ['a single empty party', party(0, ''), 'Please enter party A'],
    ['named parties', [party(1), party(0, 'new company')], null],
  ])('%s → %j', (_, value, message) => {
    expect(validateRequiredParty(field, value)?.text ?? null).toBe(message);
  });

  it('lets an optional party field be empty', () => {
    expect(validateRequiredParty({ name: 'party B', required: false }, [])).toBeNull();
  });
});

describe('score dialog and detail guards', () => {
  it.each([
    [[], 'Please select an external party first'],
    [[party(0, 'typed in')], 'Please select an external party first'],
    [[party(0, 'typed in'), party(5)], null],
  ])('scoring %j', (list, message) => {
    const result = partyToScore(list);
    if (message) expect(!result.ok && result.message.text).toBe(message);
    else expect(result).toEqual({ ok: true, value: party(5) });
  });

  it.each([
    [undefined, false],
    [null, false],
    [0, false],
    ['', false],
    [12, true],
    ['ab', true],
  ])('detail of id %j is shown: %s', (id, shown) => {
    const result = partyDetailId(id);
    expect(result.ok).toBe(shown);
    if (!result.ok) expect(result.message.text).toBe('No data');
  });

  it('hides the detail link in organisation-share environments', () => {
    expect(showsPartyDetailLink(true)).toBe(false);
    expect(showsPartyDetailLink(false)).toBe(true);
  });

  it('keys a party field by the organisation id', () => {
    expect(partyFieldKey(42)).toBe('counterpart_42');
    expect(partyFieldKey('org-1')).toBe('counterpart_org-1');
  });
});
