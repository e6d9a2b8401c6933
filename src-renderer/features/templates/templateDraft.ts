import { createTemplateSchema } from '../../../src-shared/api/contract-forms';
import type { Clause, ClauseStatement, FieldConfig, TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { fieldTypes, type FieldType } from '../../../src-shared/domain/enums';
import { templateIssues } from '../../../src-shared/rules/templates';
import type { TemplateDocument } from '../../../src-shared/contract-document/schema';

// The template editor's working copy and what it sends: the fields and clauses the form engine
// reads, each clause placed in the form by a field of type 'clause' whose id is the clause's label.

export interface TemplateDraft {
  name: string;
  /** Empty: numbered by the template numbering rules when saved. */
  templateNumber: string;
  contractTypeId: string | null;
  fields: FieldConfig[];
  clauses: Clause[];
  /** The template's Word document (its bookmarks show the fields' and clauses' values); null: none. */
  document: TemplateDocument | null;
}

/** A problem of the draft, by path ('name', 'fields.2.options', 'clauses.0.statementList.1'). */
export interface DraftIssue {
  path: string;
  message: string;
  code?: string;
}

export function draftOf(template: TemplateDetail | null): TemplateDraft {
  return {
    name: template?.name ?? '',
    templateNumber: template?.templateNumber ?? '',
    contractTypeId: template?.contractTypeId ?? null,
    fields: template?.fields ?? [],
    clauses: template?.clauses ?? [],
    document: template?.document ?? null,
  };
}

/** The types a field of the form may be given here: a clause field comes with its clause. */
export const fieldTypeChoices = fieldTypes.filter((type) => type !== 'clause');

/** The keys the ledger's terms and the feed know a contract's fields by, for the first field of each type. */
const knownKeys: Partial<Record<FieldType, string>> = {
  contractNumber: 'contractNumber',
  contractType: 'contractType',
  money: 'amount',
  inputSelectV2: 'counterparty',
  people: 'responsiblePerson',
  department: 'department',
  relatedContracts: 'relatedContracts',
};

/** A key no field among `taken` has: the type's known key first, else the type and a number. */
export function freeKey(type: FieldType, taken: readonly { id: string }[]): string {
  const used = new Set(taken.map((item) => item.id));
  const known = knownKeys[type];
  if (known && !used.has(known)) return known;
  const base = type.replace(/[^A-Za-z0-9]/g, '');
  let n = 1;
  while (used.has(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}

/** A new field of a type, with what its type needs to be usable at once (a choice field's first option). */
export function newField(type: FieldType, name: string, taken: readonly { id: string }[]): FieldConfig {
  const field: FieldConfig = { id: freeKey(type, taken), name, type };
  if (type === 'select' || type === 'multiselect' || type === 'radio' || type === 'checkbox') field.options = [{ id: '1', name: '1' }];
  return field;
}

/** A field turned into another type keeps its key, name, required flag, bookmarks and alteration right. */
export function retyped(field: FieldConfig, type: FieldType): FieldConfig {
  const kept = newField(type, field.name, []);
  return {
    ...kept,
    id: field.id,
    ...(field.required !== undefined && { required: field.required }),
    ...(field.bookmarkNames && { bookmarkNames: field.bookmarkNames }),
    ...(field.alterEditStatus !== undefined && { alterEditStatus: field.alterEditStatus }),
  };
}

export function newStatement(statements: readonly ClauseStatement[], name: string): ClauseStatement {
  const id = Math.max(0, ...statements.map((statement) => statement.id)) + 1;
  return { id, name, content: [[]], fieldList: [], labelItemList: [] };
}

/** Adds a clause and its field at the end of the form. */
export function withClause(draft: TemplateDraft, name: string, statementName: string): TemplateDraft {
  const labelID = freeKey('clause', [...draft.fields, ...draft.clauses.map((clause) => ({ id: clause.labelID }))]);
  const clause: Clause = { labelID, name, isNullable: false, bookmarkName: null, statementList: [newStatement([], statementName)] };
  return { ...draft, clauses: [...draft.clauses, clause], fields: [...draft.fields, { id: labelID, name, type: 'clause' }] };
}

/** Changes a clause; its field in the form keeps its name. */
export function withClauseChanged(draft: TemplateDraft, index: number, clause: Clause): TemplateDraft {
  const was = draft.clauses[index]!;
  return {
    ...draft,
    clauses: draft.clauses.map((each, i) => (i === index ? clause : each)),
    fields: draft.fields.map((field) => (field.type === 'clause' && field.id === was.labelID ? { ...field, name: clause.name } : field)),
  };
}

/** Removes a clause with its field. */
export function withoutClause(draft: TemplateDraft, labelID: string): TemplateDraft {
  return {
    ...draft,
    clauses: draft.clauses.filter((clause) => clause.labelID !== labelID),
    fields: draft.fields.filter((field) => !(field.type === 'clause' && field.id === labelID)),
  };
}

/** Removes a field; a clause field takes its clause with it. */
export function withoutField(draft: TemplateDraft, index: number): TemplateDraft {
  const field = draft.fields[index]!;
  if (field.type === 'clause') return withoutClause(draft, field.id);
  return { ...draft, fields: draft.fields.filter((_, i) => i !== index) };
}

export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** The body a save sends (create or update): an empty number asks for one from the rules. */
export function requestBody(draft: TemplateDraft): {
  name: string;
  contractTypeId: string | null;
  fields: FieldConfig[];
  clauses: Clause[];
  document: { fileId: string } | null;
  templateNumber?: string;
} {
  const templateNumber = draft.templateNumber.trim();
  return {
    name: draft.name,
    contractTypeId: draft.contractTypeId,
    fields: draft.fields,
    clauses: draft.clauses,
    document: draft.document && { fileId: draft.document.fileId },
    ...(templateNumber !== '' && { templateNumber }),
  };
}

/** Every problem the server would refuse the draft for: the API's schema, then the template rules. */
export function draftIssues(draft: TemplateDraft): DraftIssue[] {
  const parsed = createTemplateSchema.safeParse(requestBody(draft));
  const shape = parsed.success ? [] : parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message, code: issue.code }));
  // The rules read the draft as typed: a missing name elsewhere hides no field's problem.
  return [...shape, ...templateIssues(draft.fields, draft.clauses)];
}

/** The issues at a path or below it. */
export function issuesAt(issues: readonly DraftIssue[], path: string): DraftIssue[] {
  return issues.filter((issue) => issue.path === path || issue.path.startsWith(`${path}.`));
}
