import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOutbox } from '../../src-main/core/data/outbox';
import { openReplica } from '../../src-main/core/data/replica';
import { replicaFeatures } from '../../src-main/core/features';
import { clientMigrationsDir } from '../../src-main/paths';
import { statusByHandMessage } from '../../src-shared/sync/mutations';
import { makeContract } from '../support/contracts';

// Upgrades keep the queue (issue 12, architecture sync rule 9): an outbox as the version before
// per-field merge stored it (tests/main/fixtures/outbox-before-issue-12.json, rows verbatim;
// "@n" stands for contract n's id) is read by this build: each stored edit is sent as it was
// (the server judges its row base per field, src-server/sync/push.ts), or set aside with a
// message that says why — none is dropped silently, none blocks the rest.

interface StoredRow {
  id: string;
  name: string;
  args: string;
  base_versions: string;
  touches: string[];
}

const ids = (text: string) => text.replace(/@(\d)/g, (_, n: string) => makeContract(Number(n)).id);
const stored = (JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'outbox-before-issue-12.json'), 'utf8')) as StoredRow[]).map((row) => ({
  ...row,
  args: ids(row.args),
  base_versions: ids(row.base_versions),
  touches: row.touches.map(ids),
}));

describe('an outbox stored before per-field merge', () => {
  it('sends each stored edit as it was, or sets it aside with the reason', () => {
    const replica = openReplica(':memory:', clientMigrationsDir);
    try {
      const insert = replica.sqlite.prepare("insert into contracts (id, name, status, create_time, update_time, version) values (?, ?, 1, 't', 't', 1)");
      for (let i = 1; i <= 3; i += 1) insert.run(makeContract(i).id, `Contract ${i}`);
      const row = replica.sqlite.prepare("insert into outbox (id, name, args, base_versions, created_at, state) values (?, ?, ?, ?, '2026-11-23T10:00:00Z', 'pending')");
      const touch = replica.sqlite.prepare('insert into outbox_touches (row_key, seq) values (?, ?)');
      for (const mutation of stored) {
        const { lastInsertRowid } = row.run(mutation.id, mutation.name, mutation.args, mutation.base_versions);
        for (const key of mutation.touches) touch.run(key, lastInsertRowid);
      }
      const outbox = createOutbox(replica, { features: replicaFeatures, clock: { now: () => new Date('2026-11-23T12:00:00Z') } });
      const batch = outbox.nextBatch(50);
      // Valid edits go out with the args and base versions they were stored with; one edit per row at a time.
      expect(batch.map((m) => [m.id, m.name, m.args, m.baseVersions])).toEqual(
        stored.filter((m) => ['101', '102', '103'].some((n) => m.id.endsWith(n))).map((m) => [m.id, m.name, JSON.parse(m.args), JSON.parse(m.base_versions)]),
      );
      const problems = new Map(outbox.status().problems.map((p) => [p.id.slice(-3), p]));
      expect(problems.get('104')).toMatchObject({ state: 'rejected', error: { code: 'bad_request', message: `Set aside: ${statusByHandMessage}.` } });
      expect(problems.get('105')).toMatchObject({ state: 'rejected', error: { message: expect.stringContaining('unknown mutation "contract.archive"') } });
      expect(problems.get('106')).toMatchObject({ state: 'rejected', error: { message: expect.stringContaining('the patch changes nothing') } });
      expect([...problems.keys()].sort()).toEqual(['104', '105', '106']);
    } finally {
      replica.close();
    }
  });
});
