import { AppFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import type { Viewer } from '../contracts/repository';

// Small helpers the feature repositories share.

/** The one answer for a row that does not exist or that the viewer may not see: nothing leaks. */
export function notFound(what: string): AppFailure {
  return new AppFailure('not_found', `${what} not found`);
}

/** Refuses a write based on an older version than the stored one (optimistic concurrency). */
export function checkVersion(what: string, stored: number, expected: number | undefined): void {
  if (expected !== undefined && expected !== stored) {
    throw new AppFailure('conflict', `${what} was changed by someone else (version ${stored}, yours ${expected})`);
  }
}

/** The first row of a result or a not-found failure. */
export function single<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) throw notFound(what);
  return row;
}

/** PostgreSQL reports a unique violation as 23505, wrapped by drizzle as the error's cause. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** The viewer with their organisation, which scopes every organisation-wide row (counterparties, projects, the IP register). */
export type OrgViewer = Viewer & Pick<SessionUser, 'organisationId'>;

/**
 * The version a write is based on: the body's `version`, else an `If-Match` header carrying it
 * (`If-Match: "3"` or `3`). Neither means the write is not conditional.
 */
export function basedOnVersion(bodyVersion: number | undefined, headers: Readonly<Record<string, string | string[] | undefined>>): number | undefined {
  if (bodyVersion !== undefined) return bodyVersion;
  const header = headers['if-match'];
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(Array.isArray(header) ? (header[0] ?? '') : header);
  if (!match) throw new AppFailure('bad_request', 'If-Match must carry the version the change is based on, e.g. "3"');
  return Number(match[1]);
}
