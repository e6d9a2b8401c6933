import fc from 'fast-check';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractReader } from '../../src-main/core/ledger/contract-ledger';
import { replicaWriter } from '../../src-main/core/data/replica-sync';
import { pulledRow } from '../../src-main/core/contracts/contract-rows';
import { openReplica, type OpenReplica } from '../../src-main/core/data/replica';
import { contractsLocal } from '../../src-main/core/data/schema';
import { clientMigrationsDir } from '../../src-main/paths';
import type { ContractStatus } from '../../src-shared/domain/enums';
import { ledgerContractPageRequestSchema, ledgerSortFields } from '../../src-shared/ipc/channels';
import { makeContract } from '../support/contracts';
import { tempDir } from '../support/temp';
import { replicaFeatures } from '../../src-main/core/features';

// The ledger with pending edits pages the base table and merges the local rows in; it must show
// exactly what the (slow) contracts_overlay view shows, page by page, with the same counts.

const baseCount = 60;
const statuses = [1, 2, 3, 4, 5, null] as const;

describe('ledger read with pending local edits', () => {
  let dir: ReturnType<typeof tempDir>;
  let replica: OpenReplica;
  beforeEach(() => {
    dir = tempDir();
    replica = openReplica(join(dir.path, 'r.sqlite'), clientMigrationsDir);
    const changes = Array.from({ length: baseCount }, (_, i) => ({
      entity: 'contract' as const,
      op: 'upsert' as const,
      // Repeated names and update times exercise the id tie-break; one name sorts above U+FFFF.
      row: makeContract(i, { name: i % 9 === 0 ? `𝔸 lease ${i % 3}` : `Lease ${i % 4}`, updateTime: new Date(Date.UTC(2026, 0, 1 + (i % 7))).toISOString(), contractNumber: i % 5 === 0 ? null : `N-${i % 11}` }),
    }));
    replicaWriter(replica, replicaFeatures).applyPulledChanges(changes, '60', '2026-11-21T10:00:00.000Z');
  });
  afterEach(() => {
    replica.close();
    dir.cleanup();
  });

  it('pages and counts exactly as the overlay view, whatever rows are edited locally', () => {
    const edit = fc.record({
      i: fc.integer({ min: 0, max: baseCount - 1 }),
      name: fc.constantFrom('Lease 0', 'Lease 9', '\uffef lease', 'a'),
      status: fc.constantFrom(...statuses),
      day: fc.integer({ min: 1, max: 9 }),
    });
    const request = fc.record({
      status: fc.constantFrom(...statuses),
      q: fc.constantFrom('', 'lease', '9'),
      pageNum: fc.integer({ min: 1, max: 8 }),
      pageSize: fc.constantFrom(10, 20),
      sort: fc.record({ field: fc.constantFrom(...ledgerSortFields), order: fc.constantFrom('asc' as const, 'desc' as const) }),
    });
    // One reader throughout: what it keeps of the local rows must follow every change.
    const reader = contractReader(replica);
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 30 }), request, (edits, raw) => {
        replica.db.delete(contractsLocal).run();
        for (const e of edits) {
          const row = pulledRow(makeContract(e.i, { name: e.name, status: e.status as ContractStatus | null, updateTime: new Date(Date.UTC(2026, 0, e.day)).toISOString() }));
          replica.db.insert(contractsLocal).values(row).onConflictDoUpdate({ target: contractsLocal.id, set: row }).run();
        }
        const query = ledgerContractPageRequestSchema.parse(raw);
        const page = reader.page(query);

        const conditions = ['1'];
        const params: unknown[] = [];
        if (query.status !== null) {
          conditions.push('status = ?');
          params.push(query.status);
        }
        if (query.q !== '') {
          conditions.push("(name like ? escape '\\' or contract_number like ? escape '\\')");
          params.push(`%${query.q}%`, `%${query.q}%`);
        }
        const column = { updateTime: 'update_time', createTime: 'create_time', name: 'name', contractNumber: 'contract_number' }[query.sort.field];
        const where = conditions.join(' and ');
        const expected = replica.sqlite
          .prepare(`select id from contracts_overlay where ${where} order by ${column} ${query.sort.order}, id ${query.sort.order} limit ? offset ?`)
          .pluck()
          .all(...params, query.pageSize, (query.pageNum - 1) * query.pageSize);
        const total = replica.sqlite.prepare(`select count(*) from contracts_overlay where ${where}`).pluck().get(...params);
        expect(page.list.map((c) => c.id)).toEqual(expected);
        expect(page.count).toBe(total);

        const byStatus = replica.sqlite.prepare('select status, count(*) n from contracts_overlay group by status').all() as { status: number | null; n: number }[];
        const stats = reader.statistics();
        expect(stats.total).toBe(baseCount);
        expect(stats.draft).toBe(byStatus.find((r) => r.status === 1)?.n ?? 0);
        expect(stats.archived).toBe(byStatus.find((r) => r.status === 5)?.n ?? 0);
      }),
      { seed: 4, numRuns: 300 },
    );
  });
});
