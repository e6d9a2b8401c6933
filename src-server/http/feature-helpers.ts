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

/** PostgreSQL reports a unique violation as 23505, wrapped by drizzle as the error's cause. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** The viewer with their organisation, which scopes every organisation-wide row (counterparties, projects, the IP register). */
export type OrgViewer = Viewer & Pick<SessionUser, 'organisationId'>;
