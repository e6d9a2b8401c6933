import { AppFailure } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import type { Viewer } from '../contracts/repository';

// Small helpers the feature repositories share.

/** The one answer for a row that does not exist or that the viewer may not see: nothing leaks. */
export function notFound(what: string): AppFailure {
  return new AppFailure('not_found', `${what} not found`);
}

/** The first row of a result or a not-found failure. */
export function single<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) throw notFound(what);
  return row;
}

/** The SQLSTATE of a PostgreSQL error, which drizzle wraps as the error's cause; undefined for any other error. */
export function postgresCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    // A database error carries its severity beside the code (a system error's code is also a string).
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    if (typeof code === 'string' && typeof severity === 'string') return code;
  }
  return undefined;
}

/** PostgreSQL reports a unique violation as 23505. */
export const isUniqueViolation = (error: unknown): boolean => postgresCode(error) === '23505';

/** The viewer with their organisation, which scopes every organisation-wide row (counterparties, projects, the IP register). */
export type OrgViewer = Viewer & Pick<SessionUser, 'organisationId'>;
