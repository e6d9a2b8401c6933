import { describe, expect, it } from 'vitest';
import {
  chooseStatement,
  clauseStatements,
  initialStatementId,
  insertStatement,
  validateClause,
  type TemplateDocument,
} from '../../../src-shared/form/clause';
import type { Clause, Statement } from '../../../src-shared/form/field-config';

const statement = (id: number, text = `statement ${id}`): Statement => ({
  id,
  name: `s${id}`,
  content: text === '' ? [] : [[{ kind: 'text', text }, { kind: 'field', fieldId: 'amount' }], [{ kind: 'text', text: 'second paragraph' }]],
  fieldList: text === '' ? [] : [{ id: 'amount', name: 'amount', required: true }],
});
const clause = (isNullable: boolean, ...statements: Statement[]): Clause => ({ labelID: 'payment', isNullable, statementList: statements });
const counter = () => {
  let n = 0;
  return () => `t${++n}`;
};

describe('statements of a clause', () => {
  it.each([
    ['nullable, two statements', clause(true, statement(1), statement(2)), [1, 2, -1], null],
    ['nullable, one statement', clause(true, statement(1)), [1], 1],
    ['not nullable, two statements', clause(false, statement(1), statement(2)), [1, 2], null],
    ['not nullable, one statement', clause(false, statement(7)), [7], 7],
    ['no statements', clause(true), [], null],
  ])('%s', (_, c, ids, initial) => {
    expect(clauseStatements(c).map((s) => s.id)).toEqual(ids);
    expect(initialStatementId(c)).toBe(initial);
  });

  it("names the synthetic statement 'Do not show this clause'", () => {
    expect(clauseStatements(clause(true, statement(1), statement(2))).at(-1)).toEqual({
      id: -1,
      name: 'Do not show this clause',
      content: [],
      fieldList: [],
    });
  });
});

describe('choosing a: Statement', () => {
  it('sets the field list with position names from prefix, field id and token', () => {
    expect(chooseStatement(clause(false, statement(1), statement(2)), 2, 'clause_payment', counter())).toEqual({
      statementId: 2,
      fieldList: [{ id: 'amount', name: 'amount', required: true, positionName: 'clause_payment_amount_t1' }],
    });
  });

  it("'do not show' clears the field list", () => {
    expect(chooseStatement(clause(true, statement(1), statement(2)), -1, 'p', counter())).toEqual({ statementId: -1, fieldList: [] });
  });

  it('refuses a statement the clause does not have', () => {
    expect(chooseStatement(clause(false, statement(1)), -1, 'p', counter())).toBeNull();
  });
});

describe('statement text at the bookmark', () => {
  const document: TemplateDocument = {
    paragraphs: [
      { parts: [{ kind: 'text', text: 'Article 1' }] },
      { parts: [], bookmark: 'payment' },
      { parts: [{ kind: 'text', text: 'Article 2' }] },
    ],
  };
  const selection = chooseStatement(clause(false, statement(1)), 1, 'p', counter())!;

  it('inserts the paragraphs with field parts named by position', () => {
    const result = insertStatement(document, ['payment'], statement(1, 'Pay '), selection.fieldList, { templateApproval: false });
    expect(result.paragraphs).toEqual([
      { parts: [{ kind: 'text', text: 'Article 1' }] },
      { parts: [{ kind: 'text', text: 'Pay ' }, { kind: 'field', fieldId: 'amount', positionName: 'p_amount_t1' }], bookmark: 'payment' },
      { parts: [{ kind: 'text', text: 'second paragraph' }], bookmark: 'payment' },
      { parts: [{ kind: 'text', text: 'Article 2' }] },
    ]);
  });

  it('replaces the previous statement when another one is chosen', () => {
    const first = insertStatement(document, ['payment'], statement(1, 'Pay '), [], { templateApproval: false });
    const second = insertStatement(first, ['payment'], statement(2, 'Pay later '), [], { templateApproval: false });
    expect(second.paragraphs.map((p) => p.parts[0]?.kind === 'text' && p.parts[0].text)).toEqual(['Article 1', 'Pay later ', 'second paragraph', 'Article 2']);
  });

  it('inserts a blank paragraph for an empty: Statement', () => {
    const first = insertStatement(document, ['payment'], statement(1), [], { templateApproval: false });
    const emptied = insertStatement(first, ['payment'], statement(3, ''), [], { templateApproval: false });
    expect(emptied).toEqual(document);
  });

  it('skips insertion on template-approval pages', () => {
    expect(insertStatement(document, ['payment'], statement(1), [], { templateApproval: true })).toBe(document);
  });

  it('leaves a document without the bookmark alone', () => {
    expect(insertStatement(document, ['other'], statement(1), [], { templateApproval: false })).toEqual(document);
  });
});

describe('clause sub-form validation', () => {
  it.each([
    ['no value', undefined, ['payment terms: Please select payment terms']],
    ['no: Statement', { statementId: null, fieldList: [], values: {} }, ['payment terms: Please select payment terms']],
    ["'do not show'", { statementId: -1, fieldList: [], values: {} }, []],
    [
      'a required field empty',
      { statementId: 1, fieldList: [{ id: 'amount', name: 'amount', required: true, positionName: 'p_amount_t1' }], values: { p_amount_t1: ' ' } },
      ['payment terms.p_amount_t1: Please enter amount'],
    ],
    [
      'a required field filled in',
      { statementId: 1, fieldList: [{ id: 'amount', name: 'amount', required: true, positionName: 'p_amount_t1' }], values: { p_amount_t1: '5' } },
      [],
    ],
    ['an optional field empty', { statementId: 1, fieldList: [{ id: 'note', name: 'note', positionName: 'p_note_t2' }], values: {} }, []],
  ])('%s', (_, value, issues) => {
    expect(validateClause('payment terms', 'payment terms', value).map((i) => `${i.field}: ${i.message.text}`)).toEqual(issues);
  });
});
