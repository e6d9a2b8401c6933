import { ipImportRowSchema } from '../api/intellectual-property';
import { ipImportColumns, type IpType } from '../domain/intellectual-property';
import { issuesFromZod, type FieldIssue } from '../errors';
import { parseCsv } from './csv';

// The intellectual-property import's rules, one copy for the server (which refuses the whole
// import when any row breaks them) and the desktop's preview (which shows each row's errors
// before anything is written): the CSV's shape, each row's fields, the owner named by an
// existing organisation, and registration numbers unique per type in the file and the register.

export const ipImportMaxRows = 5000;

/** A row's issue: its number (from 1; the CSV header is row 0) and field, as the server names it. */
export const ipImportIssuePath = (row: number, field: string) => `row ${row}: ${field}`;

/** The row number an issue of an import names, or null for an issue of the whole file. */
export function ipImportIssueRow(path: string): number | null {
  const match = /^row (\d+): /.exec(path);
  return match ? Number(match[1]) : null;
}

/** The field an issue of an import names (the path without its row). */
export const ipImportIssueField = (path: string) => path.replace(/^row \d+: /, '');

/** CSV rows keyed by the template's header (empty cells absent, as in a hand-written JSON row), or the file's issue. */
export function ipImportRowsFromCsv(text: string): { rows: Record<string, unknown>[] } | { issue: FieldIssue } {
  const [header, ...lines] = parseCsv(text);
  const columns = header?.map((h) => h.trim()) ?? [];
  const unknownColumns = columns.filter((c) => !(ipImportColumns as readonly string[]).includes(c));
  if (columns.length === 0 || unknownColumns.length > 0) {
    return { issue: { path: 'csv', message: `the header must name the template's columns (${ipImportColumns.join(', ')}); unknown: ${unknownColumns.join(', ') || 'none'}` } };
  }
  if (lines.length === 0) return { issue: { path: 'csv', message: 'no rows to import' } };
  if (lines.length > ipImportMaxRows) return { issue: { path: 'csv', message: `at most ${ipImportMaxRows} rows can be imported at once` } };
  return { rows: lines.map((cells) => Object.fromEntries(columns.flatMap((column, i) => (cells[i]?.trim() ? [[column, cells[i]]] : [])))) };
}

/** The key of a registration number: unique per type. */
export const ipRegistrationKey = (type: IpType | string, registrationNumber: string) => `${type}\u0000${registrationNumber}`;

/** The registration numbers an import's rows name (to look up which are taken already). */
export function ipImportRegistrationNumbers(rows: readonly Record<string, unknown>[]): string[] {
  return [...new Set(rows.flatMap((row) => (typeof row.registrationNumber === 'string' && row.registrationNumber.trim() ? [row.registrationNumber.trim()] : [])))];
}

export type IpImportRow = ReturnType<typeof ipImportRowSchema.parse>;

export interface IpImportRowCheck {
  /** From 1, as the issues name it. */
  row: number;
  raw: Record<string, unknown>;
  /** The row's fields with the owner's id, when the row is good. */
  valid: (Omit<IpImportRow, 'ownerOrganizationName'> & { ownerOrganizationId: string }) | null;
  issues: FieldIssue[];
}

export interface IpImportContext {
  /** The organisations by name (the owner column names one). */
  organisationIdByName: ReadonlyMap<string, string>;
  /** ipRegistrationKey of every right already in the register; the server knows them all, a preview may not. */
  registered: ReadonlySet<string>;
}

/** Every row checked: its fields, its owner, and its registration number against the rows above it and the register. */
export function checkIpImportRows(rows: readonly Record<string, unknown>[], context: IpImportContext): IpImportRowCheck[] {
  const seen = new Map<string, number>();
  return rows.map((raw, index) => {
    const row = index + 1;
    const parsed = ipImportRowSchema.safeParse(raw);
    if (!parsed.success) return { row, raw, valid: null, issues: issuesFromZod(parsed.error).map((issue) => ({ path: ipImportIssuePath(row, issue.path), message: issue.message })) };
    const issues: FieldIssue[] = [];
    const { ownerOrganizationName, ...fields } = parsed.data;
    const ownerOrganizationId = context.organisationIdByName.get(ownerOrganizationName);
    if (!ownerOrganizationId) issues.push({ path: ipImportIssuePath(row, 'ownerOrganizationName'), message: `unknown organization ${ownerOrganizationName}` });
    const key = ipRegistrationKey(fields.type, fields.registrationNumber);
    const earlier = seen.get(key);
    if (earlier !== undefined) issues.push({ path: ipImportIssuePath(row, 'registrationNumber'), message: `duplicates row ${earlier}` });
    else if (context.registered.has(key)) issues.push({ path: ipImportIssuePath(row, 'registrationNumber'), message: 'already registered' });
    seen.set(key, row);
    return { row, raw, valid: issues.length === 0 && ownerOrganizationId ? { ...fields, ownerOrganizationId } : null, issues };
  });
}
