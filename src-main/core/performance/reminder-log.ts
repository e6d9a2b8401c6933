import { and, asc, eq, inArray, isNotNull, isNull, lt, lte } from 'drizzle-orm';
import type { OpenReplica } from '../data/replica';
import { firedReminders } from '../data/schema';

// The reminders already shown and the snoozed ones, kept in the replica so a restart neither
// repeats a reminder nor forgets a snooze.

export interface FiredReminder {
  id: string;
  taskId: string;
  rule: string;
  occurrence: string;
}

export interface ReminderLog {
  /** Which of `ids` were already fired. */
  firedAmong(ids: readonly string[]): Set<string>;
  markFired(reminder: FiredReminder, firedAt: string): void;
  /** Snoozes a fired reminder until `until`; false if it was never fired. */
  snooze(id: string, until: string): boolean;
  /** Snoozed reminders whose time has come (snoozedUntil ≤ now), earliest first. */
  snoozesDue(now: string): (FiredReminder & { snoozedUntil: string })[];
  /** The earliest pending snooze, to wake for it. */
  nextSnooze(): string | null;
  /** Ends a snooze (it fired again, or its task is gone or finished). */
  endSnooze(id: string): void;
  /** Forgets reminders fired before `before` that wait on no snooze; returns how many. */
  forgetFiredBefore(before: string): number;
}

// SQLite caps bound parameters per statement; ids are looked up in slices below that cap.
const lookupSlice = 500;

export function reminderLog({ db }: OpenReplica): ReminderLog {
  const t = firedReminders;
  return {
    firedAmong(ids) {
      const fired = new Set<string>();
      for (let i = 0; i < ids.length; i += lookupSlice) {
        const slice = ids.slice(i, i + lookupSlice);
        for (const row of db.select({ id: t.id }).from(t).where(inArray(t.id, slice)).all()) fired.add(row.id);
      }
      return fired;
    },
    markFired(reminder, firedAt) {
      db.insert(t).values({ ...reminder, firedAt, snoozedUntil: null }).onConflictDoNothing().run();
    },
    snooze(id, until) {
      return db.update(t).set({ snoozedUntil: until }).where(eq(t.id, id)).run().changes > 0;
    },
    snoozesDue(now) {
      return db
        .select({ id: t.id, taskId: t.taskId, rule: t.rule, occurrence: t.occurrence, snoozedUntil: t.snoozedUntil })
        .from(t)
        .where(and(isNotNull(t.snoozedUntil), lte(t.snoozedUntil, now)))
        .orderBy(asc(t.snoozedUntil))
        .all()
        .map((row) => ({ ...row, snoozedUntil: row.snoozedUntil ?? now }));
    },
    nextSnooze() {
      const row = db.select({ at: t.snoozedUntil }).from(t).where(isNotNull(t.snoozedUntil)).orderBy(asc(t.snoozedUntil)).limit(1).get();
      return row?.at ?? null;
    },
    endSnooze(id) {
      db.update(t).set({ snoozedUntil: null }).where(eq(t.id, id)).run();
    },
    forgetFiredBefore(before) {
      return db.delete(t).where(and(isNull(t.snoozedUntil), lt(t.firedAt, before))).run().changes;
    },
  };
}
