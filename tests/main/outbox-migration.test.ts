import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { createOutbox } from '../../src-main/core/data/outbox';
import { knownSchemaVersion, openReplica } from '../../src-main/core/data/replica';
import { clientMigrationsDir } from '../../src-main/paths';
import { ledgerContractPageRequestSchema } from '../../src-shared/ipc/channels';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { clientJournal, migrationsUpTo } from '../support/migrations';
import { replicaFeatures } from '../../src-main/core/features';

// Local migrations preserve the outbox (architecture, sync rule 9): a replica left at every earlier
// client migration, with edits queued where that schema had an outbox, opens with this build's
// schema and still holds every queued edit, shown on its contract and ready to send.

const journal = clientJournal;

const now = () => new Date('2026-11-21T10:00:00Z');
const outboxAt = journal.entries.findIndex((entry) => entry.tag.includes('sync_outbox')) + 1;

describe('client migrations keep queued edits', () => {
  for (let count = 1; count < journal.entries.length; count += 1) {
    it(`upgrades a replica at migration ${count} (${journal.entries[count - 1]!.tag})`, () => {
      const dir = tempDir();
      const path = join(dir.path, 'r.sqlite');
      const old = openReplica(path, migrationsUpTo(dir.path, count));
      expect(old.sqlite.pragma('user_version', { simple: true })).toBe(count);
      const insert = old.sqlite.prepare('insert into contracts (id, name, status, create_time, update_time, version) values (?, ?, ?, ?, ?, 1)');
      for (let i = 1; i <= 3; i += 1) insert.run(makeContract(i).id, `Contract ${i}`, 1, 't', `2026-01-0${i}`);
      const hasOutbox = count >= outboxAt;
      if (hasOutbox) {
        // Queued with the outbox of that schema: the rows an older build wrote.
        const outbox = old.sqlite.prepare("insert into outbox (id, name, args, base_versions, created_at, state) values (?, 'contract.update', ?, ?, ?, 'pending')");
        const touch = old.sqlite.prepare('insert into outbox_touches (row_key, seq) values (?, ?)');
        for (let i = 1; i <= 2; i += 1) {
          const id = makeContract(i).id;
          const { lastInsertRowid } = outbox.run(`0192f000-0000-7000-8000-00000000000${i}`, JSON.stringify({ id, patch: { name: `Queued ${i}` } }), JSON.stringify({ [`contract:${id}`]: 1 }), now().toISOString());
          touch.run(`contract:${id}`, lastInsertRowid);
          old.sqlite.prepare('insert into contracts_local (id, name, contract_number, status, contract_type_name, template_name, counterpart_name, amount, amount_unit, responsible_user_id, responsible_user_name, department_id, department_name, sign_date, create_time, update_time, version) select id, ?, contract_number, status, contract_type_name, template_name, counterpart_name, amount, amount_unit, responsible_user_id, responsible_user_name, department_id, department_name, sign_date, create_time, update_time, version from contracts where id = ?').run(`Queued ${i}`, id);
        }
      }
      old.close();

      const upgraded = openReplica(path, clientMigrationsDir);
      expect(upgraded.sqlite.pragma('user_version', { simple: true })).toBe(knownSchemaVersion(clientMigrationsDir));
      const outbox = createOutbox(upgraded, { features: replicaFeatures, clock: { now } });
      const names = contractReader(upgraded).page(ledgerContractPageRequestSchema.parse({ sort: { field: 'updateTime', order: 'asc' } })).list.map((c) => c.name);
      if (hasOutbox) {
        expect(outbox.status()).toMatchObject({ queued: 2, problems: [] });
        expect(names).toEqual(['Queued 1', 'Queued 2', 'Contract 3']);
        expect(outbox.nextBatch(10).map((m) => [m.seq, m.args])).toEqual([
          [1, { id: makeContract(1).id, patch: { name: 'Queued 1' } }],
          [2, { id: makeContract(2).id, patch: { name: 'Queued 2' } }],
        ]);
        // A pull after the upgrade still re-applies them on top.
        replicaWriter(upgraded, replicaFeatures).applyPulledChanges([{ entity: 'contract', op: 'upsert', row: makeContract(1, { name: 'Pulled', version: 1, updateTime: '2026-01-01' }) }], '5', now().toISOString());
        expect(contractReader(upgraded).page(ledgerContractPageRequestSchema.parse({ sort: { field: 'updateTime', order: 'asc' } })).list[0]?.name).toBe('Queued 1');
      } else {
        expect(names).toEqual(['Contract 1', 'Contract 2', 'Contract 3']);
        // The new outbox works on the upgraded replica.
        outbox.enqueue('contract.update', { id: makeContract(3).id, patch: { name: 'First edit' } });
        expect(outbox.status().queued).toBe(1);
      }
      upgraded.close();
      dir.cleanup();
    });
  }
});
