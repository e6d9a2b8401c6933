import { ipImportRowSchema } from '../api/intellectual-property';
import { ipImportColumns, ipStatuses, ipTypes, type IpStatus, type IpType } from '../domain/intellectual-property';
import { issuesFromZod, type FieldIssue } from '../errors';
import { catalogs } from '../i18n/catalogs';
import { languages, type Language } from '../i18n/languages';
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

// The template is written in the user's language (its header the columns' labels, its type and
// status as the user reads them) and a file is read in either language or with the codes: each
// column, type and status goes by its code and by its label in every catalog.

export type IpImportColumn = (typeof ipImportColumns)[number];

/** The catalog label (manage.ip) of each column. */
const columnLabelKeys = {
  name: 'name',
  type: 'type',
  registrationNumber: 'registrationNumber',
  ownerOrganizationName: 'owner',
  status: 'status',
  applicationDate: 'applicationDate',
  registrationDate: 'registrationDate',
  expirationDate: 'expirationDate',
  remark: 'remark',
} as const satisfies Record<IpImportColumn, keyof (typeof catalogs)['en']['manage']['ip']>;

/** The template's header in a language. */
export const ipImportHeader = (language: Language): string[] => ipImportColumns.map((column) => catalogs[language].manage.ip[columnLabelKeys[column]]);

/** A column's, a type's or a status's name as compared: case and surrounding space do not count. */
const nameKey = (name: string) => name.trim().toLowerCase();

/** Each code by its own name and its label in every language. */
function byEveryName<C extends string>(codes: readonly C[], label: (language: Language, code: C) => string): ReadonlyMap<string, C> {
  return new Map(codes.flatMap((code) => [[nameKey(code), code] as const, ...languages.map((language) => [nameKey(label(language, code)), code] as const)]));
}

const columnByName = byEveryName(ipImportColumns, (language, column) => catalogs[language].manage.ip[columnLabelKeys[column]]);
const typeByName = byEveryName<IpType>(ipTypes, (language, type) => catalogs[language].manage.ip.types[type]);
const statusByName = byEveryName<IpStatus>(ipStatuses, (language, status) => catalogs[language].manage.ip.statuses[status]);

/** The template's file: a header and one example row of the type, in the language, with the given example values. */
export function ipImportTemplate(type: IpType, language: Language, example: { name: string; registrationNumber: string; owner: string }): { csv: string; fileName: string } {
  const ip = catalogs[language].manage.ip;
  const row = [example.name, ip.types[type], example.registrationNumber, example.owner, ip.statuses.registered, '2023-03-01', '2024-01-15', '2043-03-01', ''];
  const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return {
    csv: `\uFEFF${ipImportHeader(language).map(quoted).join(',')}\r\n${row.map(quoted).join(',')}\r\n`,
    fileName: `${ip.import.templateFileName.replace('{{type}}', ip.types[type])}.csv`,
  };
}

/** A file's issue: no header of the template (with the names not known), no rows, or too many. */
export type IpImportFileIssue = FieldIssue & { kind: 'header'; unknownColumns: string[] } | FieldIssue & { kind: 'noRows' | 'tooManyRows' };

/**
 * CSV rows keyed by the columns' codes (empty cells absent, as in a hand-written JSON row), their
 * type and status as codes when the file names them by label; or the file's issue.
 */
export function ipImportRowsFromCsv(text: string): { rows: Record<string, unknown>[] } | { issue: IpImportFileIssue } {
  const [header, ...lines] = parseCsv(text);
  const names = header?.map((h) => h.trim()) ?? [];
  const columns = names.map((name) => columnByName.get(nameKey(name)));
  const unknownColumns = names.filter((_, i) => columns[i] === undefined);
  if (names.length === 0 || unknownColumns.length > 0) {
    const message = `the header must name the template's columns (${ipImportColumns.join(', ')}); unknown: ${unknownColumns.join(', ') || 'none'}`;
    return { issue: { path: 'csv', message, kind: 'header', unknownColumns } };
  }
  if (lines.length === 0) return { issue: { path: 'csv', message: 'no rows to import', kind: 'noRows' } };
  if (lines.length > ipImportMaxRows) return { issue: { path: 'csv', message: `at most ${ipImportMaxRows} rows can be imported at once`, kind: 'tooManyRows' } };
  const code = (column: IpImportColumn, cell: string) =>
    column === 'type' ? (typeByName.get(nameKey(cell)) ?? cell) : column === 'status' ? (statusByName.get(nameKey(cell)) ?? cell) : cell;
  return {
    rows: lines.map((cells) => Object.fromEntries(columns.flatMap((column, i) => (column && cells[i]?.trim() ? [[column, code(column, cells[i])]] : [])))),
  };
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
