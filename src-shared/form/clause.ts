import { isBlankValue, type Clause, type ClauseField, type Statement, type StatementPart } from './field-config';
import { formMessage, formMessages, type FormIssue } from './messages';

// Spec 3 "Clause" and spec 4 "Clause": statements of a clause, the chosen statement's fields
// with their position names, and the statement text placed at the template's bookmark.

/** The synthetic statement meaning 'do not show this clause' (spec 9). */
export const hiddenStatementId = -1;

export function hiddenStatement(): Statement {
  return { id: hiddenStatementId, name: formMessages.doNotShowClause, content: [], fieldList: [] };
}

/** The statements offered: a nullable clause with more than one statement also offers 'do not show'. */
export function clauseStatements(clause: Clause): Statement[] {
  return clause.isNullable && clause.statementList.length > 1 ? [...clause.statementList, hiddenStatement()] : [...clause.statementList];
}

/** A clause with exactly one statement has it selected from the start. */
export function initialStatementId(clause: Clause): number | null {
  const [only, ...others] = clause.statementList;
  return only && others.length === 0 ? only.id : null;
}

/** Random tokens come from outside so that position names are reproducible in tests. */
export type TokenGenerator = () => string;

export function positionName(prefix: string, fieldId: string, token: string): string {
  return `${prefix}_${fieldId}_${token}`;
}

export interface ClauseSelection {
  statementId: number;
  /** The chosen statement's fields, each with its position name in the document. */
  fieldList: ClauseField[];
}

/** Choosing a statement sets the clause's field list; null when the clause has no such statement. */
export function chooseStatement(clause: Clause, statementId: number, prefix: string, token: TokenGenerator): ClauseSelection | null {
  const statement = clauseStatements(clause).find((s) => s.id === statementId);
  if (!statement) return null;
  return {
    statementId,
    fieldList: statement.fieldList.map((field) => ({ ...field, positionName: positionName(prefix, field.id, token()) })),
  };
}

// ----- The template document -----

export type DocumentPart = { kind: 'text'; text: string } | { kind: 'field'; fieldId: string; positionName?: string };

export interface DocumentParagraph {
  parts: DocumentPart[];
  /** The bookmark this paragraph belongs to: a clause's paragraphs carry the clause's bookmark. */
  bookmark?: string;
}

export interface TemplateDocument {
  paragraphs: DocumentParagraph[];
}

export interface InsertContext {
  /** Template-approval pages show the template as it is: no insertion. */
  templateApproval: boolean;
}

function toDocumentPart(part: StatementPart, fields: readonly ClauseField[]): DocumentPart {
  if (part.kind === 'text') return part;
  const name = fields.find((f) => f.id === part.fieldId)?.positionName;
  return name ? { kind: 'field', fieldId: part.fieldId, positionName: name } : { kind: 'field', fieldId: part.fieldId };
}

/** The statement's paragraphs; an empty statement is one blank paragraph. */
function statementParagraphs(statement: Statement, fields: readonly ClauseField[], bookmark: string): DocumentParagraph[] {
  if (statement.content.length === 0) return [{ parts: [], bookmark }];
  return statement.content.map((paragraph) => ({ parts: paragraph.map((p) => toDocumentPart(p, fields)), bookmark }));
}

/**
 * Puts the statement's text at each of the clause's bookmarks, replacing what the bookmark held
 * (so choosing another statement replaces the first). A bookmark missing from the document is
 * left alone.
 */
export function insertStatement(
  document: TemplateDocument,
  bookmarkNames: readonly string[],
  statement: Statement,
  fields: readonly ClauseField[],
  context: InsertContext,
): TemplateDocument {
  if (context.templateApproval) return document;
  let paragraphs = document.paragraphs;
  for (const bookmark of bookmarkNames) {
    const at = paragraphs.findIndex((p) => p.bookmark === bookmark);
    if (at === -1) continue;
    const after = paragraphs.slice(at).filter((p) => p.bookmark !== bookmark);
    paragraphs = [...paragraphs.slice(0, at), ...statementParagraphs(statement, fields, bookmark), ...after];
  }
  return { paragraphs };
}

// ----- Validation of the clause sub-form -----

export interface ClauseValue {
  statementId: number | null;
  fieldList: ClauseField[];
  /** Values of the statement's fields, by position name. */
  values: Record<string, unknown>;
}

/** A clause needs a statement chosen, and every required field of that statement filled in. */
export function validateClause(fieldKey: string, fieldName: string, value: ClauseValue | null | undefined): FormIssue[] {
  if (!value || value.statementId === null) return [{ field: fieldKey, message: formMessage('pleaseSelect', { name: fieldName }) }];
  return value.fieldList.flatMap((field) =>
    field.required && isBlankValue(field.positionName ? value.values[field.positionName] : undefined)
      ? [{ field: `${fieldKey}.${field.positionName ?? field.id}`, message: formMessage('pleaseEnter', { name: field.name }) }]
      : [],
  );
}
