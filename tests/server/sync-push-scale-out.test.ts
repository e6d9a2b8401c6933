import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, reachablePostgres, seedInChild, spawnContractServer } from '../../bench/support';
import { endpoints } from '../../src-shared/api/endpoints';
import { syncProtocolVersion, syncSchemaVersion, type MutationEnvelope, type MutationResult } from '../../src-shared/api/sync';
import { rowKey } from '../../src-shared/sync/mutations';
import { verifyAuditChain } from '../../src-server/audit/chain';
import { openDatabase } from '../../src-server/index';

// Issue 30 item 6: three server processes on one PostgreSQL, six clients pushing overlapping
// batches of contract edits at once, each batch in its own order of contracts. A push locks its
// rows in one order and retries a deadlock inside the server, so no push answers 5xx, and every
// mutation is decided exactly once: each client changes a field of its own, so every edit applies
// (per-field merge), and each contract ends exactly as many versions up as edits applied to it.

const postgres = await reachablePostgres();
const rounds = 50;
const pool = 6;
const perBatch = 2;

/** A month of the year from an edit's tag ("seq.round"). */
const month = (tag: string) => String((Number(tag.split('.')[0]) % 12) + 1).padStart(2, '0');

/** Each client's own field: a column, or a value of the form every seeded template has. */
const clientFields = [
  (tag: string) => ({ name: `Scale ${tag}` }),
  (tag: string) => ({ contractNumber: `SC-${tag}` }),
  (tag: string) => ({ formValues: { subject: `Subject ${tag}` } }),
  (tag: string) => ({ formValues: { remark: `Remark ${tag}` } }),
  (tag: string) => ({ formValues: { signDate: `2026-${month(tag)}-15` } }),
  (tag: string) => ({ formValues: { period: [`2026/${month(tag)}/01`, `2027/${month(tag)}/01`] } }),
] as const;

/** A seeded random sequence, so a failing run can be read again. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe.skipIf(!postgres)('concurrent pushes through three server processes on PostgreSQL', () => {
  let databaseUrl: string;
  let db: pg.Client;
  const servers: Awaited<ReturnType<typeof spawnContractServer>>[] = [];

  beforeAll(async () => {
    databaseUrl = await freshDatabase(postgres!, 'contract_desk_push_scale_out');
    const env = { DATABASE_URL: databaseUrl };
    await seedInChild(pool, env);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    // Drafts, so that every edit is one the server may apply.
    await db.query('update contracts set status = 1');
    servers.push(...(await Promise.all([0, 1, 2].map(() => spawnContractServer(env)))));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.end();
  });

  it('never answers 5xx, and decides every mutation exactly once', { timeout: 120_000 }, async () => {
    const login = await fetch(`${servers[0]!.url}${endpoints.login.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin123' }) });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    const { rows: seeded } = await db.query<{ id: string; version: number }>('select id, version from contracts order by id');
    expect(seeded).toHaveLength(pool);
    const next = random(20261128);
    const clients = clientFields.map((edit, i) => ({ id: uuidv7(), edit, seq: 0, server: servers[i % servers.length]!, known: new Map(seeded.map((c) => [c.id, c.version])) }));
    const applied = new Map<string, number>();
    const sent: string[] = [];
    const statuses: number[] = [];

    async function push(client: (typeof clients)[number], round: number) {
      // Overlapping batches in an order of their own: the pattern that deadlocked row-by-row locking.
      const chosen = [...seeded];
      for (let i = chosen.length - 1; i > 0; i -= 1) {
        const j = Math.floor(next() * (i + 1));
        [chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!];
      }
      const mutations: MutationEnvelope[] = chosen.slice(0, perBatch).map((contract) => {
        client.seq += 1;
        const key = rowKey('contract', contract.id);
        return { id: uuidv7(), seq: client.seq, name: 'contract.update', args: { id: contract.id, patch: client.edit(`${client.seq}.${round}`) }, baseVersions: { [key]: client.known.get(contract.id)! } };
      });
      sent.push(...mutations.map((m) => m.id));
      const response = await fetch(`${client.server.url}${endpoints.syncPush.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ protocolVersion: syncProtocolVersion, schemaVersion: syncSchemaVersion, clientId: client.id, mutations }),
      });
      statuses.push(response.status);
      if (response.status !== 200) return;
      const { results } = ((await response.json()) as { data: { results: MutationResult[] } }).data;
      for (const [i, result] of results.entries()) {
        const contractId = (mutations[i]!.args as { id: string }).id;
        expect(result, JSON.stringify(result)).toMatchObject({ id: mutations[i]!.id, status: 'applied' });
        if (result.status !== 'applied') continue;
        client.known.set(contractId, result.versions[rowKey('contract', contractId)]!);
        applied.set(contractId, (applied.get(contractId) ?? 0) + 1);
      }
    }

    for (let round = 0; round < rounds; round += 1) await Promise.all(clients.map((client) => push(client, round)));

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const { rows: processed } = await db.query<{ id: string; decided: boolean }>('select id, result is not null as decided from processed_mutations where client_id = any($1)', [clients.map((c) => c.id)]);
    expect(processed.map((row) => row.id).sort()).toEqual([...sent].sort());
    expect(processed.every((row) => row.decided)).toBe(true);
    const { rows: after } = await db.query<{ id: string; version: number }>('select id, version from contracts order by id');
    for (const [i, contract] of after.entries()) expect(contract.version - seeded[i]!.version).toBe(applied.get(contract.id) ?? 0);
    // Issue 32 item 4: one audit event per applied mutation, in one chain without gaps across the
    // three processes, which verification finds intact.
    const { rows: events } = await db.query<{ mutation_id: string; organisation_id: string }>('select mutation_id, organisation_id from audit_events where mutation_id = any($1)', [sent]);
    expect(events.map((e) => e.mutation_id).sort()).toEqual([...sent].sort());
    const handle = await openDatabase({ databaseUrl });
    try {
      const chain = await verifyAuditChain(handle.db, events[0]!.organisation_id);
      expect(chain).toMatchObject({ intact: true, problem: null, fromSeq: 1 });
      expect(chain.checked).toBeGreaterThanOrEqual(sent.length);
    } finally {
      await handle.close();
    }
  });
});
