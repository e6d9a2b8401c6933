import { describe, expect, it } from 'vitest';
import type { PartyValue } from '../../../src-shared/form/field-config';
import {
  addParty,
  counterpartSearchQuery,
  newBlankParty,
  newPartiesIn,
  partyDetailId,
  partyDetailValues,
  partyRisk,
  withNewPartyIds,
  withoutNewMarks,
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

describe('parties as the spec has them (issue 29)', () => {
  const fields = [
    { id: 'counterparty', type: 'inputSelectV2', partyType: 2 },
    { id: 'ourSide', type: 'inputSelect', partyType: 1 },
    { id: 'remark', type: 'textarea' },
  ];

  it('puts an added party in place of the one a single-party field holds, and beside chosen ones otherwise', () => {
    const chosen = [{ id: 'c-1', name: 'Acme' }];
    expect(addParty(chosen, newBlankParty(), 1)).toEqual({ ok: true, value: [{ id: 0, name: '' }] });
    expect(addParty(chosen, { id: 'c-2', name: 'Beta' }, 1)).toEqual({ ok: true, value: [{ id: 'c-2', name: 'Beta' }] });
    expect(addParty(chosen, newBlankParty())).toEqual({ ok: true, value: [...chosen, { id: 0, name: '' }] });
  });

  it('gives each named party typed in an id of its own and the new mark; blank ones, chosen ones and other fields stay', () => {
    let next = 0;
    const values = withNewPartyIds(
      fields,
      { counterparty: [{ id: 'c-1', name: 'Acme' }, { id: 0, name: '  Newco  ' }, { id: 0, name: '' }], ourSide: [{ id: 0, name: 'Our branch' }], remark: 'x' },
      () => `new-${++next}`,
    );
    expect(values).toEqual({
      counterparty: [{ id: 'c-1', name: 'Acme' }, { id: 'new-1', name: 'Newco', isNew: true }, { id: 0, name: '' }],
      ourSide: [{ id: 'new-2', name: 'Our branch', isNew: true }],
      remark: 'x',
    });
    // Saved again before it synced: the party keeps the id it was given.
    expect(withNewPartyIds(fields, values, () => 'again')).toEqual(values);
  });

  it('lists the new parties once each with their field party type, and drops the marks once they are made', () => {
    const values = {
      counterparty: [{ id: 'n-1', name: 'Newco', isNew: true }, { id: 'c-1', name: 'Acme' }],
      ourSide: [{ id: 'n-2', name: 'Our branch', isNew: true }, { id: 'n-1', name: 'Newco', isNew: true }],
    };
    expect(newPartiesIn(fields, values)).toEqual([
      { fieldId: 'counterparty', partyType: 2, party: { id: 'n-1', name: 'Newco', isNew: true } },
      { fieldId: 'ourSide', partyType: 1, party: { id: 'n-2', name: 'Our branch', isNew: true } },
    ]);
    expect(withoutNewMarks(fields, values)).toEqual({
      counterparty: [{ id: 'n-1', name: 'Newco' }, { id: 'c-1', name: 'Acme' }],
      ourSide: [{ id: 'n-2', name: 'Our branch' }, { id: 'n-1', name: 'Newco' }],
    });
  });

  it('warns of a blacklisted counterparty (rating 40) and of one with risks reported', () => {
    expect(partyRisk({ rating: 40, riskCount: 0 })).toBe('blacklisted');
    expect(partyRisk({ rating: 20, riskCount: 3 })).toBe('risky');
    expect(partyRisk({ rating: 10, riskCount: 0 })).toBeNull();
    expect(partyRisk(undefined)).toBeNull();
  });

  const result = {
    id: 'c-9',
    name: 'Acme',
    fieldDetailMap: { keyword: 'ACME', subtype: 1, address: 'Shanghai', rating: 20 },
    bankItemList: [{ name: 'ICBC', account: '6222000011112222', accountName: 'Acme Ltd' }],
    contactItemList: [{ name: 'Zhang San', phone: '13800000000', email: 'z@acme.test', title: null }],
  };

  it("fills the party's own details from the search result", () => {
    expect(partyFromSearchResult(result)).toEqual({ id: 'c-9', name: 'Acme', keyword: 'ACME', subtype: 1, contactsName: 'Zhang San', contactsPhone: '13800000000' });
  });

  it("fills the party's detail fields (its subject group) by their tags, and a bank account field with the first bank's account", () => {
    const form = [
      { id: 'address', type: 'text', tag: 'address', subjectGroup: 'counterparty' },
      { id: 'account', type: 'bankAccount', subjectGroup: 'counterparty' },
      { id: 'bank', type: 'text', tag: 'bankName', subjectGroup: 'counterparty' },
      { id: 'contact', type: 'text', tag: 'contactEmail', subjectGroup: 'counterparty' },
      { id: 'fax', type: 'text', tag: 'fax', subjectGroup: 'counterparty' },
      { id: 'elsewhere', type: 'text', tag: 'address', subjectGroup: 'ourSide' },
      { id: 'untagged', type: 'text', subjectGroup: 'counterparty' },
    ] as const;
    expect(partyDetailValues(form, ['counterparty'], result)).toEqual({ address: 'Shanghai', account: '6222000011112222', bank: 'ICBC', contact: 'z@acme.test' });
  });
});
