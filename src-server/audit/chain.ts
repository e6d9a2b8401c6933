import { createHash } from 'node:crypto';
import { and, asc, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { AuditChange, AuditVerification } from '../../src-shared/api/audit';
import type { ServerDb } from '../db/database';
import { organisations } from '../db/schema';
import { auditEvents } from './schema';
import { insertRows } from '../db/json-rows';

// The hash chain of the audit trail. Each event stores the SHA-256 of its content (canonical JSON:
// keys sorted, times as ISO strings) together with the previous event's hash, so an event changed
// in the database no longer matches its hash and a removed one breaks the link of the next.
//
// One chain per organisation, whatever the number of server processes: an appender takes the
// organisation's transaction-level advisory lock, reads the last event and inserts after it; the
// lock is held to commit, so the next appender reads the committed last event. Writes append their
// events last in their transaction (after every row lock of the write itself), so no transaction
// waits for a row lock while holding the chain: the lock cannot take part in a deadlock.

/** What a write records; the chain adds its place and hashes. */
export interface AuditEntry {
  organisationId: string;
  userId: string;
  userName: string;
  device: string;
  entity: string;
  entityId: string | null;
  action: string;
  changes: Record<string, AuditChange>;
  editedAt: Date | null;
  appliedAt: Date;
  mutationId: string | null;
  requestId: string | null;
}

type StoredEvent = typeof auditEvents.$inferSelect;

/** The hash of the chain's first event's predecessor. */
export const genesisHash = '0'.repeat(64);

/** Distinguishes the audit chain's advisory locks from the server's other ones (migrations). */
const chainLockClass = 727_002;

/**
 * JSON with object keys sorted at every depth: the same value always gives the same text. Keys
 * sort by UTF-16 code units (Array.prototype.sort's own order); built by concatenation, since a
 * plan's event holds hundreds of fields and a drain thousands of events.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i += 1) text += (i > 0 ? ',' : '') + canonicalJson(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
    first = false;
  }
  return `${text}}`;
}

/** The hash of an event: every stored column but the hash itself. */
export function eventHash(event: Omit<StoredEvent, 'hash'>): string {
  const { editedAt, appliedAt, ...rest } = event;
  const content = { ...rest, editedAt: editedAt && editedAt.toISOString(), appliedAt: appliedAt.toISOString() };
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/**
 * Appends the entries to their organisations' chains, in order. Call it as the last write of the
 * transaction that made the changes, so they commit or roll back together.
 */
export async function appendAuditEvents(tx: ServerDb, entries: readonly AuditEntry[]): Promise<void> {
  const byOrganisation = new Map<string, AuditEntry[]>();
  for (const entry of entries) byOrganisation.set(entry.organisationId, [...(byOrganisation.get(entry.organisationId) ?? []), entry]);
  // Organisations in one order, so two appenders for the same two never wait on each other crosswise.
  for (const organisationId of [...byOrganisation.keys()].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(${chainLockClass}, hashtext(${organisationId}))`);
    const [last] = await tx
      .select({ seq: auditEvents.seq, hash: auditEvents.hash })
      .from(auditEvents)
      .where(eq(auditEvents.organisationId, organisationId))
      .orderBy(sql`${auditEvents.seq} desc`)
      .limit(1);
    let seq = last?.seq ?? 0;
    let prevHash = last?.hash ?? genesisHash;
    const rows: StoredEvent[] = [];
    for (const entry of byOrganisation.get(organisationId)!) {
      seq += 1;
      const event = { ...entry, seq, prevHash };
      const hash = eventHash(event);
      rows.push({ ...event, hash });
      prevHash = hash;
    }
    for (let at = 0; at < rows.length; at += insertChunk) await insertRows(tx, auditEvents, rows.slice(at, at + insertChunk));
  }
}

/** Rows per insert: bounds one statement's JSON. */
const insertChunk = 2000;
/** Events read per page while verifying, so a long chain is walked in bounded memory. */
const verifyPage = 2000;

/**
 * Walks an organisation's chain from its oldest kept event (older ones are pruned by the
 * retention; the oldest kept one's link is taken as it is) and names the first event that was
 * changed, or before which one was removed.
 */
export async function verifyAuditChain(db: ServerDb, organisationId: string): Promise<AuditVerification> {
  let previous: { seq: number; hash: string } | undefined;
  let fromSeq: number | null = null;
  let checked = 0;
  for (;;) {
    const page = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organisationId, organisationId), previous ? gt(auditEvents.seq, previous.seq) : undefined))
      .orderBy(asc(auditEvents.seq))
      .limit(verifyPage);
    for (const { hash, ...event } of page) {
      fromSeq ??= event.seq;
      if (previous && (event.seq !== previous.seq + 1 || event.prevHash !== previous.hash)) {
        const message = event.seq !== previous.seq + 1
          ? `events ${previous.seq + 1} to ${event.seq - 1} were removed (event ${event.seq} follows event ${previous.seq})`
          : `event ${event.seq} does not follow event ${previous.seq}: an event between them was removed or event ${previous.seq}'s hash was rewritten`;
        return { intact: false, checked, fromSeq, problem: { seq: event.seq, kind: 'removed', message } };
      }
      if (eventHash(event) !== hash) {
        return { intact: false, checked, fromSeq, problem: { seq: event.seq, kind: 'changed', message: `event ${event.seq} was changed after it was recorded` } };
      }
      checked += 1;
      previous = { seq: event.seq, hash };
    }
    if (page.length < verifyPage) return { intact: true, checked, fromSeq, problem: null };
  }
}

/**
 * Drops an organisation's events applied before `before`, as a prefix of its chain (an event's
 * apply time is taken before it joins the chain, so times and places may differ slightly): the
 * chain stays verifiable from the oldest kept event.
 */
export async function pruneAuditEvents(db: ServerDb, organisationId: string, before: Date): Promise<void> {
  const [cut] = await db
    .select({ seq: sql<number | null>`max(${auditEvents.seq})` })
    .from(auditEvents)
    .where(and(eq(auditEvents.organisationId, organisationId), lt(auditEvents.appliedAt, before)));
  if (cut?.seq == null) return;
  await db.delete(auditEvents).where(and(eq(auditEvents.organisationId, organisationId), lte(auditEvents.seq, Number(cut.seq))));
}

/** Prunes each organisation's events older than its retention (server maintenance, src-server/maintenance.ts). */
export async function pruneExpiredAuditEvents(db: ServerDb, now: Date): Promise<void> {
  const day = 24 * 60 * 60 * 1000;
  for (const { id, days } of await db.select({ id: organisations.id, days: organisations.auditRetentionDays }).from(organisations)) {
    await pruneAuditEvents(db, id, new Date(now.getTime() - days * day));
  }
}
