import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { ContractStatus, contractStatuses, ScheduleConditionType } from '../../src-shared/domain/enums';
import { planCreateSchema } from '../../src-shared/domain/performance';
import { AppFailure } from '../../src-shared/errors';
import { mayAddPlan, planCreateRows, planStatusRefusal } from '../../src-shared/rules/fulfilment';
import { generatePeriodicSchedule, scheduleCycles } from '../../src-shared/rules/schedule';

// Which contracts may have a plan added (issue 28 item 2), and a new plan's rows: the schedule's
// periods with the ids the device made, then the rows typed by hand.

describe('the contract statuses a plan may be added under', () => {
  it('are approved and archived only; the refusal names the status and the allowed ones', () => {
    expect(contractStatuses.filter(mayAddPlan)).toEqual([ContractStatus.Approved, ContractStatus.Archived]);
    expect(mayAddPlan(null)).toBe(false);
    for (const status of contractStatuses) expect(planStatusRefusal(status) === null).toBe(mayAddPlan(status));
    expect(planStatusRefusal(ContractStatus.Drafting)?.error).toMatchObject({ code: 'conflict', reason: { key: 'planStatus', params: { status: 1, allowed: [4, 5] } } });
    expect(planStatusRefusal(null)?.error.reason).toEqual({ key: 'planStatus', params: { status: 'none', allowed: [4, 5] } });
  });
});

const day = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe("a new plan's rows", () => {
  it('are one per period of the schedule, in order, with the ids given, and sum to the total; then the rows typed by hand', () => {
    fc.assert(
      fc.property(fc.constantFrom(...scheduleCycles.filter((cycle) => cycle !== 'day')), day, fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 1e9 }), (cycle, startDate, span, amount) => {
        const endDate = new Date(Date.parse(startDate) + span * 86_400_000).toISOString().slice(0, 10);
        const periods = generatePeriodicSchedule({ cycle, startDate, endDate, amount });
        const schedule = { cycle, startDate, endDate, amount: { amount, unit: 'CNY' }, direction: 'receivable' as const, name: 'Rent' };
        const ids = periods.map(() => uuidv7());
        const hand = { id: uuidv7(), name: 'Invoice' };
        const rows = planCreateRows(planCreateSchema.parse({ contractID: 'c', conditionType: ScheduleConditionType.Periodicity, schedule, scheduleTaskIds: ids, rows: [hand] }));
        expect(rows.map((row) => row.id)).toEqual([...ids, hand.id]);
        expect(rows.slice(0, -1).map((row) => row.expirationTime)).toEqual(periods.map((p) => p.dueDate));
        expect(rows.slice(0, -1).reduce((sum, row) => sum + row.receivableAmount!.amount, 0)).toBe(amount);
        expect(rows.at(-1)).toEqual(hand);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a schedule whose periods are not as many as its ids, and a plan with no row or a row id twice', () => {
    const schedule = { cycle: 'month', startDate: '2027-01-15', endDate: '2027-12-20', amount: { amount: 100, unit: 'CNY' }, direction: 'payable', name: 'Rent' } as const;
    const plan = (ids: number) => ({ contractID: 'c', conditionType: ScheduleConditionType.Periodicity, schedule, scheduleTaskIds: Array.from({ length: ids }, () => uuidv7()), rows: [] });
    expect(planCreateRows(planCreateSchema.parse(plan(12)))).toHaveLength(12);
    expect(() => planCreateRows(planCreateSchema.parse(plan(13)))).toThrow(AppFailure);
    expect(() => planCreateRows(planCreateSchema.parse(plan(13)))).toThrow('the schedule makes 12 rows, not 13');
    expect(planCreateSchema.safeParse({ contractID: 'c', conditionType: 0, rows: [] }).success).toBe(false);
    const id = uuidv7();
    expect(planCreateSchema.safeParse({ contractID: 'c', conditionType: 0, rows: [{ id, name: 'a' }, { id, name: 'b' }] }).success).toBe(false);
    expect(planCreateSchema.safeParse({ contractID: 'c', conditionType: 0, schedule, rows: [{ id, name: 'a' }] }).success).toBe(false);
    expect(planCreateSchema.safeParse({ contractID: 'c', conditionType: 0, rows: [{ id, name: 'a' }] }).success).toBe(true);
  });

  it("names the generated rows with their period's days as the user's language writes them (issue 28: not ISO)", () => {
    const schedule = { cycle: 'month', startDate: '2027-01-15', endDate: '2027-03-31', amount: { amount: 30_000, unit: 'CNY' }, direction: 'payable', name: '租金' } as const;
    const names = (language?: 'en' | 'zh-CN') =>
      planCreateRows(planCreateSchema.parse({ contractID: 'c', conditionType: ScheduleConditionType.Periodicity, schedule: { ...schedule, ...(language && { language }) }, scheduleTaskIds: [uuidv7(), uuidv7(), uuidv7()], rows: [] })).map((row) => row.name);
    expect(names('zh-CN')).toEqual(['租金 2027年01月15日 ~ 2027年01月31日', '租金 2027年02月01日 ~ 2027年02月28日', '租金 2027年03月01日 ~ 2027年03月31日']);
    expect(names('en')[0]).toBe('租金 15 Jan 2027 ~ 31 Jan 2027');
    // A schedule saved before it said its language keeps the stored days.
    expect(names()[0]).toBe('租金 2027-01-15~2027-01-31');
    expect(planCreateSchema.safeParse({ contractID: 'c', conditionType: ScheduleConditionType.Periodicity, schedule: { ...schedule, language: 'fr' }, scheduleTaskIds: [], rows: [] }).success).toBe(false);
  });
});
