// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { ClauseValue } from '../../../src-shared/form/clause';
import { field, renderField } from './support';


afterEach(cleanup);

const price = { id: 'price', name: 'unit price', type: 'text' as const, maxlength: 5, required: true };
type Statement = Clause['statementList'][number];
const statement = (id: number, name: string, content: Statement['content'], fieldList: Statement['fieldList'] = [price]): Statement => ({ id, name, content, fieldList, labelItemList: [] });
const payment = (isNullable: boolean, statements = [
  statement(1, 'pay on delivery', [[{ type: 'text' as const, text: 'Pay ' }, { type: 'field' as const, fieldId: 'price' }, { type: 'text' as const, text: ' on delivery.' }]]),
  statement(2, 'nothing to say', [], []),
]): Clause => ({ labelID: 'cl1', name: 'payment', isNullable, bookmarkName: 'payment_terms', statementList: statements });
const clauseField = field({ id: 'cl1', name: 'payment clause', type: 'clause' });
const select = () => screen.getByRole('combobox', { name: 'payment clause: Statement' }) as HTMLSelectElement;

describe('clause field', () => {
  it('auto-selects the only statement', async () => {
    const view = renderField(clauseField, { clauses: [payment(true, [payment(true).statementList[0]!])] });
    await waitFor(() => expect((view.value() as ClauseValue).statementId).toBe(1));
    expect((view.value() as ClauseValue).fieldList[0]!.positionName).toMatch(/^clause_price_\w+$/);
    expect([...select().options].map((o) => o.text)).toEqual(['pay on delivery']);
  });

  it('leaves the choice alone outside edit mode', () => {
    const view = renderField(clauseField, { clauses: [payment(true, [payment(true).statementList[0]!])], mode: 'preview' });
    expect(view.value()).toBeUndefined();
    expect(screen.getByText('--')).toBeTruthy();
  });

  it("offers 'Do not show this clause' (-1) when nullable with more than one statement", () => {
    renderField(clauseField, { clauses: [payment(true)] });
    expect([...select().options].map((o) => o.text)).toEqual(['Choose a statement', 'pay on delivery', 'nothing to say', 'Do not show this clause']);
    cleanup();
    renderField(clauseField, { clauses: [payment(false)] });
    expect([...select().options].map((o) => o.text)).not.toContain('Do not show this clause');
  });

  it('renders the statement fields as sub-fields and composes the text at the bookmark', async () => {
    const view = renderField(clauseField, { clauses: [payment(true)] });
    await userEvent.selectOptions(select(), '1');
    const text = () => screen.getByRole('region', { name: 'Clause text' });
    expect(text().textContent).toBe('Pay [unit price] on delivery.');
    expect(text().querySelector('p')!.dataset.bookmark).toBe('payment_terms');
    await userEvent.type(screen.getByRole('textbox', { name: 'unit price' }), '12');
    expect(text().textContent).toBe('Pay 12 on delivery.');
    const value = view.value() as ClauseValue;
    expect(Object.values(value.values)).toEqual(['12']);
  });

  it('inserts a blank paragraph for an empty statement', async () => {
    renderField(clauseField, { clauses: [payment(true)] });
    await userEvent.selectOptions(select(), '2');
    expect(screen.getByRole('region', { name: 'Clause text' }).textContent).toBe('(Blank paragraph)');
  });

  it('skips insertion on template-approval pages', async () => {
    renderField(clauseField, { clauses: [payment(true)], templateApproval: true });
    await userEvent.selectOptions(select(), '1');
    expect(screen.getByRole('region', { name: 'Clause text' }).textContent).toBe('(Blank paragraph)');
  });

  it('validates the sub-form with the engine: each field\'s rules and the required ones', async () => {
    const value: ClauseValue = { statementId: 1, fieldList: [{ id: 'price', name: 'unit price', required: true, positionName: 'clause_price_t1' }], values: { clause_price_t1: '1234567' } };
    const view = renderField(clauseField, { clauses: [payment(true)], value });
    expect(view.issues().map((i) => [i.field, i.message.text])).toEqual([['cl1.clause_price_t1', 'At most 5 characters']]);
    await userEvent.clear(screen.getByRole('textbox', { name: 'unit price' }));
    expect(view.issues().map((i) => [i.field, i.message.text])).toEqual([['cl1.clause_price_t1', 'Please enter unit price']]);
  });

  it('shows the chosen statement in preview and locks it when disabled', () => {
    const value: ClauseValue = { statementId: -1, fieldList: [], values: {} };
    renderField(clauseField, { clauses: [payment(true)], value, mode: 'preview' });
    expect(screen.getByText('Do not show this clause')).toBeTruthy();
    expect(screen.queryByRole('combobox')).toBeNull();
    cleanup();
    renderField(clauseField, { clauses: [payment(true)], value, mode: 'disabled' });
    expect(select().disabled).toBe(true);
  });
});
