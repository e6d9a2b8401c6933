import { describe, expect, it } from 'vitest';
import { syncPullResponseSchema, type SyncChange, type SyncPullResponse } from '../../src-shared/api/sync';
import { packedPullResponseSchema, packPullResponse, unpackPullResponse, type PackedPullResponse } from '../../src-shared/sync/feed-codec';
import { contractId, makeContract, makeTask } from '../support/contracts';
import { seededRandom } from '../../bench/stats';

// The lean feed's codec alone: any page packs and unpacks to itself, and a packed page that does
// not add up is refused rather than read as something else.

const uuid = (random: () => number) => {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
};

function randomPage(seed: number): SyncPullResponse {
  const random = seededRandom(seed);
  const contracts = Array.from({ length: 3 }, () => uuid(random));
  // One object that several plans hold (as the server hands a performance's form to each of its plans).
  const form = [{ id: 'finishDate', name: 'completion date', type: 'date', required: true }];
  const changes: SyncChange[] = Array.from({ length: 40 }, (_, i): SyncChange => {
    const pick = random();
    const contract = contracts[Math.floor(random() * contracts.length)]!;
    if (pick < 0.25) {
      const formValues = random() < 0.5 ? { contractName: `Name ${i}`, signDate: '2026-01-02' } : {};
      return { entity: 'contract', op: 'upsert', row: makeContract(i, { id: uuid(random), name: random() < 0.5 ? `Name ${i}` : `Other ${i}`, signDate: '2026-01-02', formValues }) };
    }
    if (pick < 0.5)
      return {
        entity: 'performanceTask',
        op: 'upsert',
        // An id not in the lowercase spelling stays as it is; a null contract stays null.
        row: makeTask(i, { id: random() < 0.1 ? uuid(random).toUpperCase() : uuid(random), contractId: random() < 0.2 ? null : contract, completionValues: random() < 0.5 ? { description: 'done' } : null }),
      };
    if (pick < 0.7)
      return {
        entity: 'performancePlan',
        op: 'upsert',
        row: { id: uuid(random), contractId: contract, performanceId: 'payment', performanceName: 'Payment', performanceType: 'receivable', columns: [], fields: form, conditionType: 1, schedule: null, version: 1, updateTime: '2026-01-01T00:00:00.000Z' },
      };
    return { entity: random() < 0.5 ? 'contract' : 'performanceTask', op: 'delete', id: random() < 0.5 ? uuid(random) : contractId(i) };
  });
  return { changes, cursor: '17.3.2', hasMore: random() < 0.5, remaining: 2 };
}

describe('the packed feed', () => {
  it('unpacks any page to itself, through JSON and the schemas', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const page = randomPage(seed);
      const packed = packedPullResponseSchema.parse(JSON.parse(JSON.stringify(packPullResponse(page))));
      expect(syncPullResponseSchema.parse(unpackPullResponse(packed))).toEqual(syncPullResponseSchema.parse(page));
    }
  });

  it('sends an object several rows hold once, and ids as milliseconds and rests', () => {
    const page = randomPage(7);
    const packed = packPullResponse(page);
    const plans = page.changes.filter((change) => change.entity === 'performancePlan').length;
    expect(plans).toBeGreaterThan(1);
    expect(packed.objects).toHaveLength(1);
    const contractTable = packed.tables.find((table) => table.entity === 'contract' && table.op === 'upsert')!;
    const ids = contractTable.cells[contractTable.columns.indexOf('id')]!;
    expect(Array.isArray(ids)).toBe(false);
    expect(JSON.stringify(ids)).not.toMatch(/[0-9a-f]{8}-/);
  });

  it('refuses a packed page whose parts do not add up', () => {
    const packed = packPullResponse(randomPage(3));
    const broken = (change: (copy: PackedPullResponse) => void) => {
      const copy = structuredClone(packed);
      change(copy);
      return () => unpackPullResponse(copy);
    };
    expect(broken((copy) => copy.order.push(99, 1))).toThrow(/names no table/);
    expect(broken((copy) => (copy.order[copy.order.length - 1]! += 1))).toThrow(/fewer rows/);
    expect(broken((copy) => copy.order.splice(-2, 2))).toThrow(/more rows/);
    expect(broken((copy) => copy.tables[0]!.cells.pop())).toThrow(/columns of cells/);
    const shared = packed.tables.find((table) => table.shared.length > 0)!;
    const at = packed.tables.indexOf(shared);
    const column = shared.columns.indexOf(shared.shared[0]!);
    expect(broken((copy) => ((copy.tables[at]!.cells[column] as unknown[])[0] = 10_000))).toThrow(/names no value/);
    const ids = { idTimes: [1, null], idRests: ['0123456789abcdef0123', '0123456789abcdef0123'] };
    expect(broken((copy) => (copy.ids = ids))).toThrow(/one side only/);
    expect(broken((copy) => (copy.ids = { idTimes: [-5], idRests: ['0123456789abcdef0123'] }))).toThrow(/48 bits/);
    expect(packedPullResponseSchema.safeParse({ ...packed, ids: { idTimes: [1], idRests: ['not hex'] } }).success).toBe(false);
  });
});
