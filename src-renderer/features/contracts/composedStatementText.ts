import type { Clause } from '../../../src-shared/domain/contract-forms';
import { clauseStatements, insertStatement, type ClauseValue, type TemplateDocument } from '../../../src-shared/form/clause';
import type { Clause as FormClause } from '../../../src-shared/form/field-config';

// The contract text a template's clauses compose (spec 4, "Clause"): each clause's chosen
// statement at the clause's bookmark, an empty statement as a blank paragraph.

/** The template's clause as the form logic reads it (its statement parts are `kind`-tagged). */
function formClause(clause: Clause): FormClause {
  return {
    labelID: clause.labelID,
    isNullable: clause.isNullable,
    statementList: clause.statementList.map((statement) => ({
      id: statement.id,
      name: statement.name,
      content: statement.content.map((paragraph) =>
        paragraph.map((part) => (part.type === 'text' ? { kind: 'text' as const, text: part.text } : { kind: 'field' as const, fieldId: part.fieldId })),
      ),
      fieldList: statement.fieldList.map((field) => ({ id: field.id, name: field.name, required: field.required ?? false })),
    })),
  };
}

/** A clause field's value is the clause whose labelID is the field's id. */
export function clauseValue(values: Readonly<Record<string, unknown>>, clause: Clause): ClauseValue | null {
  const value = values[clause.labelID] as ClauseValue | undefined;
  return value && typeof value === 'object' && 'statementId' in value ? value : null;
}

export function composedStatementText(clauses: readonly Clause[], values: Readonly<Record<string, unknown>>): TemplateDocument {
  let document: TemplateDocument = {
    paragraphs: clauses.flatMap((clause) => (clause.bookmarkName ? [{ parts: [], bookmark: clause.bookmarkName }] : [])),
  };
  for (const clause of clauses) {
    const value = clauseValue(values, clause);
    if (!clause.bookmarkName || value?.statementId == null) continue;
    const statement = clauseStatements(formClause(clause)).find((s) => s.id === value.statementId);
    if (statement) document = insertStatement(document, [clause.bookmarkName], statement, value.fieldList, { templateApproval: false });
  }
  return document;
}
