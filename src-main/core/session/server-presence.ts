import type { ActiveSession } from './session-service';

// What the session's sync knows of the server: away (its health checks or syncs failed to reach
// it) or not. Server-only calls read it to refuse at once rather than wait out a network timeout.

export interface ServerPresence {
  /** The last health check or sync could not reach the server. */
  away(): boolean;
  /** Checks again soon, without waiting for the answer. */
  recheck(): void;
}

const presences = new WeakMap<ActiveSession, ServerPresence>();

export function registerServerPresence(session: ActiveSession, presence: ServerPresence): void {
  presences.set(session, presence);
}

/** The session's presence; a session without a sync (a test's bare session) is taken as present. */
export function serverPresenceOf(session: ActiveSession): ServerPresence | null {
  return presences.get(session) ?? null;
}
