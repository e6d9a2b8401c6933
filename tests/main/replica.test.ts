import Database from 'better-sqlite3-multiple-ciphers';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import type { SyncChange } from '../../src-shared/api/sync';
import type { ContractStatus } from '../../src-shared/domain/enums';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerContractPageRequestSchema, type LedgerContractPageRequest } from '../../src-shared/ipc/channels';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { metaReader, replicaWriter } from '../../src-main/core/data/replica-sync';
import { knownSchemaVersion, openReplica, setCorruptReplicaAside, type OpenReplica } from '../../src-main/core/data/replica';
import { clientMigrationsDir } from '../../src-main/paths';
import { AppFailure } from '../../src-shared/errors';
import { contractSchema } from '../../src-shared/domain/contract';
import { contractId, makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

const query = (request: LedgerContractPageRequest) => ledgerContractPageRequestSchema.parse(request);

function expectFailure(action: () => unknown, code: string) {
  try {
    action();
  } catch (cause) {
    expect(cause).toBeInstanceOf(AppFailure);
    expect((cause as AppFailure).error.code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('replica file', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('migrates a fresh database to the schema this build knows, in WAL mode', () => {
    const replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    expect(replica.sqlite.pragma('user_version', { simple: true })).toBe(knownSchemaVersion(clientMigrationsDir));
    expect(replica.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = replica.sqlite.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['contracts', 'replica_meta']));
    replica.close();
    // Reopening an up-to-date replica runs no migration and keeps its rows.
    const again = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    expect(again.sqlite.pragma('user_version', { simple: true })).toBe(knownSchemaVersion(clientMigrationsDir));
    again.close();
  });

  it('refuses a file that is not a database with replica_corrupt', () => {
    const path = join(dir.path, 'broken.sqlite');
    writeFileSync(path, 'this is not an SQLite file, just some text that is long enough '.repeat(200));
    expectFailure(() => openReplica(path, clientMigrationsDir), 'replica_corrupt');
  });

  it('refuses a replica written by a newer build and leaves it untouched', () => {
    const path = join(dir.path, 'newer.sqlite');
    const future = new Database(path);
    future.exec('create table from_the_future (x)');
    future.pragma(`user_version = ${knownSchemaVersion(clientMigrationsDir) + 1}`);
    future.close();
    expectFailure(() => openReplica(path, clientMigrationsDir), 'replica_newer_schema');
    const check = new Database(path);
    expect(check.prepare("select count(*) from sqlite_master where name = 'contracts'").pluck().get()).toBe(0);
    check.close();
  });

  it('sets a damaged replica aside instead of deleting it', () => {
    const path = join(dir.path, 'r.sqlite');
    writeFileSync(path, 'garbage');
    const aside = setCorruptReplicaAside(path, new Date('2026-11-21T10:00:00Z'));
    expect(aside).toMatch(/r\.sqlite\.corrupt-2026-11-21T10-00-00-000Z$/);
    const fresh = openReplica(path, clientMigrationsDir);
    fresh.close();
  });
});

describe('contract replica reader and writer', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const changes = Array.from({ length: 53 }, (_, i) => ({ entity: 'contract' as const, op: 'upsert' as const, row: makeContract(i + 1) }));
    changes.push({ entity: 'contract', op: 'upsert', row: makeContract(100, { status: null, name: 'Lease 100% _draft_' }) });
    replicaWriter(replica, replicaFeatures).applyPulledChanges(changes, '54', '2026-11-21T10:00:00.000Z');
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('counts contracts per status, a missing status only in the total', () => {
    expect(contractReader(replica).statistics()).toEqual({
      total: 54, draft: 10, underApproval: 11, approvalRejected: 11, approved: 11, archived: 10,
    });
  });

  it('pages by update time, newest first, within a status tab', () => {
    const reader = contractReader(replica);
    const first = reader.page(query({ status: 2, pageNum: 1, pageSize: 5 }));
    expect(first.count).toBe(11);
    expect(first.list.map((c) => c.id)).toEqual([contractId(51), contractId(46), contractId(41), contractId(36), contractId(31)]);
    const last = reader.page(query({ status: 2, pageNum: 3, pageSize: 5 }));
    expect(last.list.map((c) => c.id)).toEqual([contractId(1)]);
    // The ledger's row: the contract without the form's columns.
    expect(first.list[0]).toEqual(contractSchema.parse(makeContract(51)));
  });

  it('keeps a missing status and amount as null', () => {
    const all = contractReader(replica).page(query({ pageSize: 5 }));
    expect(all.count).toBe(54);
    expect(all.list[0]).toMatchObject({ id: contractId(100), status: null });
  });

  it('matches the keyword literally, with % and _ as plain characters', () => {
    const reader = contractReader(replica);
    expect(reader.page(query({ q: '100%' })).list.map((c) => c.id)).toEqual([contractId(100)]);
    expect(reader.page(query({ q: '_draft_' })).count).toBe(1);
    expect(reader.page(query({ q: "'; drop table contracts; --" })).count).toBe(0);
    expect(reader.page(query({ q: 'HT-2026-00005' })).list.map((c) => c.id).sort()).toEqual(
      [contractId(50), contractId(51), contractId(52), contractId(53)],
    );
    expect(reader.statistics().total).toBe(54);
  });

  it('sorts by name ascending when asked', () => {
    const page = contractReader(replica).page(query({ sort: { field: 'name', order: 'asc' }, pageSize: 5 }));
    const names = page.list.map((c) => c.name);
    expect(names).toEqual([...names].sort());
  });

  it('applies updates and deletes from a later page and advances the cursor', () => {
    const writer = replicaWriter(replica, replicaFeatures);
    writer.applyPulledChanges(
      [
        { entity: 'contract', op: 'upsert', row: makeContract(1, { status: 5, version: 2, updateTime: '2027-01-01T00:00:00.000Z' }) },
        { entity: 'contract', op: 'delete', id: contractId(2) },
      ],
      '56',
      '2026-11-21T11:00:00.000Z',
    );
    const reader = contractReader(replica);
    expect(reader.statistics().total).toBe(53);
    expect(reader.page(query({ status: 5, pageSize: 5 })).list[0]).toMatchObject({ id: contractId(1), version: 2 });
    expect(metaReader(replica).cursor()).toBe('56');
    expect(metaReader(replica).lastSyncAt()).toBe('2026-11-21T11:00:00.000Z');
  });

  it('leaves the replica unchanged when a page fails half-way', () => {
    const writer = replicaWriter(replica, replicaFeatures);
    const bad = { ...makeContract(200), name: null as unknown as string };
    expect(() =>
      writer.applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(199) }, { entity: 'contract', op: 'upsert', row: bad }], '99', 'x'),
    ).toThrow();
    expect(contractReader(replica).statistics().total).toBe(54);
    expect(metaReader(replica).cursor()).toBe('54');
  });
});

describe('replica migrations', () => {
  it('upgrades a replica of the first schema with data in it, backfilling the status counts', () => {
    const dir = tempDir();
    // A build that knew only the first migration.
    const oldMigrations = join(dir.path, 'migrations-v1');
    mkdirSync(join(oldMigrations, 'meta'), { recursive: true });
    const journal = JSON.parse(readFileSync(join(clientMigrationsDir, 'meta', '_journal.json'), 'utf8'));
    const first = journal.entries[0];
    writeFileSync(join(oldMigrations, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: [first] }));
    copyFileSync(join(clientMigrationsDir, `${first.tag}.sql`), join(oldMigrations, `${first.tag}.sql`));

    const path = join(dir.path, 'r.sqlite');
    const old = openReplica(path, oldMigrations);
    expect(old.sqlite.pragma('user_version', { simple: true })).toBe(1);
    const insert = old.sqlite.prepare('insert into contracts (id, name, status, create_time, update_time, version) values (?, ?, ?, ?, ?, 1)');
    [1, 1, 4, null, 5].forEach((status, i) => insert.run(`c${i}`, `n${i}`, status, 't', 't'));
    old.sqlite.prepare("insert into replica_meta (key, value) values ('pull_cursor', '77')").run();
    old.close();

    const upgraded = openReplica(path, clientMigrationsDir);
    expect(upgraded.sqlite.pragma('user_version', { simple: true })).toBe(knownSchemaVersion(clientMigrationsDir));
    expect(contractReader(upgraded).statistics()).toEqual({ total: 5, draft: 2, underApproval: 0, approvalRejected: 0, approved: 1, archived: 1 });
    // Sync schema 3 brought the form's columns: the cursor starts over and every kept row waits
    // to be pulled again (those the full pull does not bring back go, as after a must_resync).
    expect(metaReader(upgraded).cursor()).toBe('0');
    expect(upgraded.sqlite.prepare('select count(*) from resync_unseen').pluck().get()).toBe(5);
    upgraded.close();
    dir.cleanup();
  });
});

describe('status counts kept by triggers', () => {
  it('always equal a fresh count of the contracts, whatever pages of upserts and deletes arrive', () => {
    const dir = tempDir();
    const replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const writer = replicaWriter(replica, replicaFeatures);
    const reader = contractReader(replica);
    const truth = replica.sqlite.prepare('select coalesce(status, 0) as status, count(*) as n from contracts group by 1');
    const status = fc.constantFrom<ContractStatus | null>(1, 2, 3, 4, 5, null);
    const change = fc.oneof(
      fc.record({ op: fc.constant('upsert' as const), i: fc.integer({ min: 0, max: 30 }), status }),
      fc.record({ op: fc.constant('delete' as const), i: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 25 }), { maxLength: 8 }), (pages) => {
        for (const page of pages) {
          const changes: SyncChange[] = page.map((c) =>
            c.op === 'upsert'
              ? { entity: 'contract', op: 'upsert', row: makeContract(c.i, { status: c.status }) }
              : { entity: 'contract', op: 'delete', id: makeContract(c.i).id },
          );
          writer.applyPulledChanges(changes, '1', 't');
        }
        const expected = { total: 0, draft: 0, underApproval: 0, approvalRejected: 0, approved: 0, archived: 0 };
        const keys = ['', 'draft', 'underApproval', 'approvalRejected', 'approved', 'archived'] as const;
        for (const row of truth.all() as { status: number; n: number }[]) {
          expected.total += row.n;
          const key = keys[row.status];
          if (key) expected[key] += row.n;
        }
        expect(reader.statistics()).toEqual(expected);
      }),
      { numRuns: 300, seed: 20261121 },
    );
    replica.close();
    dir.cleanup();
  });
});

describe('first sync bookkeeping', () => {
  it('keeps a pull from nothing a first sync across its pages and a reopening, until a pull reaches the end', () => {
    const dir = tempDir();
    const path = join(dir.path, 'first.sqlite');
    let replica = openReplica(path, clientMigrationsDir);
    const upsert = (n: number): SyncChange => ({ entity: 'contract', op: 'upsert', row: makeContract(n) });
    expect(metaReader(replica).firstSyncOpen()).toBe(false);
    // A mid-way cursor names the server's starting level, never '0'.
    replicaWriter(replica, replicaFeatures).applyPulledChanges([upsert(1)], '40.37.9', '2026-11-21T11:00:00.000Z');
    expect(metaReader(replica).firstSyncOpen()).toBe(true);
    replica.close();
    replica = openReplica(path, clientMigrationsDir);
    replicaWriter(replica, replicaFeatures).applyPulledChanges([upsert(2)], '45.37.4', '2026-11-21T11:00:01.000Z');
    expect(metaReader(replica).firstSyncOpen()).toBe(true);
    replicaWriter(replica, replicaFeatures).applyPulledChanges([upsert(3)], '50', '2026-11-21T11:00:02.000Z');
    replicaWriter(replica, replicaFeatures).finishPull();
    expect(metaReader(replica).firstSyncOpen()).toBe(false);
    // A later incremental pull is not a first sync; a rebuild is.
    replicaWriter(replica, replicaFeatures).applyPulledChanges([upsert(4)], '60.50.3', '2026-11-21T11:00:03.000Z');
    expect(metaReader(replica).firstSyncOpen()).toBe(false);
    replicaWriter(replica, replicaFeatures).startResync();
    replicaWriter(replica, replicaFeatures).applyPulledChanges([upsert(5)], '70.68.2', '2026-11-21T11:00:04.000Z');
    expect(metaReader(replica).firstSyncOpen()).toBe(true);
    replica.close();
    dir.cleanup();
  });
});
