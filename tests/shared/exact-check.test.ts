import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { syncPullResponseSchema, type SyncChange, type SyncPullResponse } from '../../src-shared/api/sync';
import { isoDateSchema } from '../../src-shared/domain/dates';
import { packedPullResponseSchema, packPullResponse } from '../../src-shared/sync/feed-codec';
import { exactParser } from '../../src-shared/sync/exact-check';
import { seededRandom } from '../../bench/stats';
import { makeContract, makeTask } from '../support/contracts';

// The fast path of the feed's checks answers exactly as zod does: the same yes or no, the same
// output, the same message, for valid pages and for every way a page can go wrong.

function samePage(seed: number): SyncPullResponse {
  const random = seededRandom(seed);
  const form = [{ id: 'finishDate', name: 'completion date', type: 'date', required: true }];
  const changes: SyncChange[] = Array.from({ length: 12 }, (_, i): SyncChange => {
    const pick = random();
    if (pick < 0.3) return { entity: 'contract', op: 'upsert', row: makeContract(i, { formValues: { contractName: `Name ${i}`, amount: { amount: 12, unit: 'CNY' } } }) };
    if (pick < 0.6) return { entity: 'performanceTask', op: 'upsert', row: makeTask(i, { expirationTime: random() < 0.5 ? '2026-02-28' : null, values: { c1: 'x' } }) };
    if (pick < 0.8)
      return {
        entity: 'performancePlan',
        op: 'upsert',
        row: { id: `plan-${i}`, contractId: makeContract(i).id, performanceId: 'payment', performanceName: 'Payment', performanceType: 'receivable', columns: [], fields: form, conditionType: 1, schedule: null, version: 1, updateTime: '2026-01-01T00:00:00.000Z' },
      };
    return { entity: random() < 0.5 ? 'contract' : 'performanceTask', op: 'delete', id: makeTask(i).id };
  });
  return { changes, cursor: '17.3.2', hasMore: random() < 0.5, remaining: 2 };
}

/** The same value with one thing changed at a random place: a value replaced, a key dropped or added. */
function mutated(value: unknown, random: () => number, replacement: unknown): unknown {
  const copy = structuredClone(value);
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    containers.push(node as Record<string, unknown>);
    for (const child of Object.values(node)) walk(child);
  };
  walk(copy);
  const target = containers[Math.floor(random() * containers.length)]!;
  const keys = Object.keys(target);
  const key = keys[Math.floor(random() * keys.length)];
  const pick = random();
  if (key !== undefined && pick < 0.6) (target as Record<string, unknown>)[key] = replacement;
  else if (key !== undefined && pick < 0.8 && !Array.isArray(target)) delete target[key];
  // An own "__proto__" key, as JSON.parse makes one.
  else if (!Array.isArray(target)) Object.defineProperty(target, random() < 0.5 ? 'extra' : '__proto__', { value: replacement, enumerable: true, writable: true, configurable: true });
  return copy;
}

const replacements = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('', 'x'.repeat(65), '2026-02-30', '2026-1-1', 'ABC', Number.NaN, Infinity, -1, 1.5, 2 ** 60, undefined, null, [], {}, 'upsert', 'contract'),
);

function expectSameAnswer<S extends z.ZodType>(schema: S, value: unknown) {
  const fast = exactParser(schema)(value);
  const zod = schema.safeParse(value);
  expect(fast.success).toBe(zod.success);
  if (fast.success && zod.success) expect(fast.data).toStrictEqual(zod.data);
  else expect(fast.error?.issues).toEqual(zod.error?.issues);
}

describe('the exact checks of the feed', () => {
  it('take a valid page as it is, without a copy', () => {
    const page = samePage(3);
    const parsed = exactParser(syncPullResponseSchema)(page);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toBe(page);
    const packed = JSON.parse(JSON.stringify(packPullResponse(page)));
    expect(exactParser(packedPullResponseSchema)(packed).data).toBe(packed);
  });

  it('answer as zod does for any page changed in one place (1,000 seeded runs)', () => {
    const parse = exactParser(syncPullResponseSchema);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), replacements, (seed, replacement) => {
        const value = mutated(samePage(seed), seededRandom(seed + 1), replacement);
        const fast = parse(value);
        const zod = syncPullResponseSchema.safeParse(value);
        expect(fast.success).toBe(zod.success);
        if (fast.success) expect(fast.data).toStrictEqual(zod.data);
        else expect(fast.error.issues).toEqual(zod.error!.issues);
      }),
      { numRuns: 1000, seed: 12 },
    );
  });

  it('answer as zod does for packed pages changed in one place', () => {
    const parse = exactParser(packedPullResponseSchema);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), replacements, (seed, replacement) => {
        const value = mutated(JSON.parse(JSON.stringify(packPullResponse(samePage(seed)))), seededRandom(seed + 1), replacement);
        const fast = parse(value);
        const zod = packedPullResponseSchema.safeParse(value);
        expect(fast.success).toBe(zod.success);
        if (fast.success) expect(fast.data).toStrictEqual(zod.data);
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('leave to zod what changes a value: an unknown key stripped, a default, a transform', () => {
    const page = samePage(3);
    const extra = { ...page, changes: page.changes.map((change) => (change.op === 'upsert' ? { ...change, row: { ...change.row, extra: 1 } } : change)) };
    const parsed = exactParser(syncPullResponseSchema)(extra);
    expect(parsed.data).not.toBe(extra);
    expect(parsed.data).toStrictEqual(syncPullResponseSchema.parse(extra));
    expectSameAnswer(z.object({ a: z.string().default('x') }), {});
    expectSameAnswer(z.object({ a: z.string().trim() }), { a: ' y ' });
    expectSameAnswer(z.object({ a: z.string().transform((text) => text.length) }), { a: 'abc' });
    expectSameAnswer(z.object({ a: z.string() }).strict(), { a: 'b', c: 1 });
    expectSameAnswer(z.record(z.string(), z.number()), JSON.parse('{"__proto__": 1}'));
  });

  it('answer as zod does for each kind of schema they compile, on any JSON value', () => {
    const schemas: z.ZodType[] = [
      z.string().min(1).max(4),
      z.string().uuid(),
      isoDateSchema,
      z.number().int().nonnegative(),
      z.number().gt(1).lt(5),
      z.boolean(),
      z.literal(['a', 'b']),
      z.enum(['a', 'b']),
      z.string().nullable().optional(),
      z.array(z.number()),
      z.record(z.string(), z.boolean()),
      z.object({ a: z.number(), b: z.string().optional() }),
      z.union([z.array(z.string()), z.object({ x: z.number() })]),
      z.union([z.string(), z.string().min(2)]),
      z.discriminatedUnion('k', [z.object({ k: z.literal('a'), n: z.number() }), z.object({ k: z.literal('b') })]),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.oneof(fc.jsonValue(), replacements), (schema, value) => expectSameAnswer(schema, value)),
      { numRuns: 2000, seed: 9 },
    );
  });
});
