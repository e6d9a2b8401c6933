import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { reminderTaskKinds, TaskState } from '../../src-shared/domain/enums';
import type { ReminderSettings } from '../../src-shared/domain/reminders';
import { defaultPerformanceForm, openStateFor, organisationDay, organisationZone } from '../../src-shared/rules/performance';
import type { PerformanceTaskType } from '../../src-shared/domain/performance';
import { demoUsers } from '../seed/catalogue';
import { Random } from '../seed/random';
import type { Executor } from './tasks';
import { performances, performanceTasks, reminderSettings } from './schema';

// Demo performance data, deterministic for a seed. The handful of performances, the quick tasks
// and the reminder settings are built here; the plans and their ~4 tasks per contract are
// derived from the contracts inside PostgreSQL (insert … select with generate_series), so
// 200,000 tasks cost a few statements instead of hundreds of thousands of parameters. Every
// "random" choice there is an md5 of the seed and the contract id: same seed, same rows.

/** The demo performances, one per kind of fulfilment (spec 4 task types). */
const catalogue: readonly { name: string; type: PerformanceTaskType }[] = [
  { name: '收款履约', type: 'receivable' },
  { name: '付款履约', type: 'payment' },
  { name: '开票履约', type: 'invoicing' },
  { name: '合同到期', type: 'expiration' },
  { name: '资料回收', type: 'recall' },
];

/** Which performance a contract's plan is under, by contract type; other types pick by hash. */
const performanceByContractType: Record<string, PerformanceTaskType> = {
  销售合同: 'receivable',
  技术开发合同: 'receivable',
  采购合同: 'payment',
  服务合同: 'payment',
  租赁合同: 'payment',
  咨询服务合同: 'payment',
  框架协议: 'invoicing',
  保密协议: 'expiration',
};

/** The tasks' names per performance type; `{n}` is the row number. */
const taskNames: Record<string, string> = {
  receivable: '第{n}期收款',
  payment: '第{n}期付款',
  invoicing: '第{n}次开票',
  expiration: '合同到期检查（第{n}次）',
  recall: '履约资料回收（第{n}批）',
};

export interface PerformanceSeedInput {
  seed: number;
  organisationId: string;
  /** The seeded users: leaders of quick tasks and owners of reminder settings. */
  users: readonly { id: string; username: string }[];
  /** "Now" of the demo data: due dates spread around it. */
  baseDate: Date;
}

export interface PerformanceSeedSummary {
  performances: number;
  plans: number;
  tasks: number;
}

/** A constant of the code (never input) written into the SQL text, so it keeps its integer type. */
const lit = (value: number) => sql.raw(String(value));

const rowCount = (result: unknown) => (result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;

export async function seedPerformance(tx: Executor, input: PerformanceSeedInput): Promise<PerformanceSeedSummary> {
  const random = new Random(input.seed ^ 0x5eed7a5c);
  const base = input.baseDate.getTime();
  const newId = () => uuidv7({ msecs: base - 900 * 86_400_000, random: random.bytes(16) });
  const today = organisationDay(input.baseDate);

  const performanceRows = catalogue.map(({ name, type }, sortOrder) => ({
    id: newId(),
    organisationId: input.organisationId,
    name,
    type,
    ...defaultPerformanceForm(type),
    sortOrder,
    createTime: new Date(base - 900 * 86_400_000),
    updateTime: new Date(base - 900 * 86_400_000),
  }));
  await tx.insert(performances).values(performanceRows);
  const performanceIds = performanceRows.map((p) => p.id);
  const performanceTypes = performanceRows.map((p) => p.type);
  const typeIndex = (type: PerformanceTaskType) => performanceTypes.indexOf(type) + 1;

  // A hash in [0, 2^28) of the seed, a row's key and a salt: deterministic "randomness" in SQL.
  const hash = (key: ReturnType<typeof sql>, salt: string) =>
    sql`(('x' || substr(md5(${String(input.seed)} || ':' || ${key} || ':' || ${salt}), 1, 7))::bit(28)::int)`;
  // A UUIDv7 whose time part is the contract's (its id's first 13 characters) and whose random part is an md5.
  const derivedId = (contractId: ReturnType<typeof sql>, salt: ReturnType<typeof sql>) => sql`(
    substr(${contractId}, 1, 14) || '7' || substr(md5(${String(input.seed)} || ${contractId} || ${salt}), 1, 3) || '-8'
    || substr(md5(${String(input.seed)} || ${contractId} || ${salt}), 4, 3) || '-' || substr(md5(${String(input.seed)} || ${contractId} || ${salt}), 7, 12))`;

  const typeCases = sql.join(
    Object.entries(performanceByContractType).map(([contractType, type]) => sql`when ${contractType} then ${lit(typeIndex(type))}`),
    sql` `,
  );
  // generate_series makes the planner expect millions of rows, and the JIT compilation that
  // estimate triggers cost four times the work itself (50 s instead of 13 s for 200,000 tasks).
  await tx.execute(sql`set local jit = off`);
  const plans = await tx.execute(sql`
    insert into performance_plans (id, contract_id, performance_id, condition_type, created_by, create_time, update_time)
    select ${derivedId(sql`c.id`, sql`'plan'`)}, c.id,
      (array[${sql.join(performanceIds.map((id) => sql`${id}`), sql`, `)}]::text[])[case c.contract_type_name ${typeCases} else 1 + ${hash(sql`c.id`, 'performance')} % ${performanceIds.length} end],
      1, c.responsible_user_id, c.create_time, c.create_time
    from contracts c`);

  const names = sql.join(
    performanceTypes.map((type) => sql`when ${type} then replace(${taskNames[type] ?? '任务{n}'}, '{n}', k::text)`),
    sql` `,
  );
  const baseDay = sql`${today}::date`;
  const tasks = await tx.execute(sql`
    with shaped as (
      select p.id as plan_id, p.performance_id, perf.type as performance_type, c.id as contract_id, c.create_time,
        c.amount, c.amount_unit, c.responsible_user_id,
        2 + ${hash(sql`c.id`, 'count')} % 5 as n,
        20 + ${hash(sql`c.id`, 'step')} % 100 as step,
        ${hash(sql`c.id`, 'lag')} % 3 = 0 as lagging
      from performance_plans p
      join contracts c on c.id = p.contract_id
      join performances perf on perf.id = p.performance_id
    ),
    dated as (
      select s.*, k, (s.create_time at time zone ${organisationZone})::date + k * s.step as due,
        ${hash(sql`s.contract_id || ':' || k`, 'state')} as h,
        case when s.amount is null then null
             when k = s.n then s.amount - (s.amount / s.n) * (s.n - 1)
             else s.amount / s.n end as part
      from shaped s cross join lateral generate_series(1, s.n) as k
    ),
    counted as (
      select d.*, count(*) filter (where d.due < ${baseDay}) over (partition by d.plan_id) as past from dated d
    ),
    stated as (
      select c.*,
        case when c.k <= c.past - (case when c.lagging then 1 else 0 end) then ${lit(TaskState.Success)}
             when c.due < ${baseDay} then (case when c.h % 10 = 0 then ${lit(TaskState.Incomplete)} else ${lit(TaskState.Overdue)} end)
             when c.due > ${baseDay} + 30 then ${lit(TaskState.NotStarted)}
             else ${lit(TaskState.InProgress)} end as state,
        case when c.performance_type = 'receivable' then c.part end as receivable,
        case when c.performance_type = 'payment' then c.part end as payable
      from counted c
    )
    insert into performance_tasks (id, organisation_id, plan_id, contract_id, performance_id, name, type, state, level, row_index,
      expiration_time, payable_amount, receivable_amount, amount_unit, leader_user_id, values, completion_values,
      finished_amount, finished_at, finished_by, created_by, create_time, update_time, version)
    select ${derivedId(sql`s.contract_id`, sql`':' || s.k`)}, ${input.organisationId}, s.plan_id, s.contract_id, s.performance_id,
      case s.performance_type ${names} else '任务' || s.k end,
      case when s.receivable > 0 then 'receivable' when s.payable > 0 then 'payable' else s.performance_type end,
      s.state, 1 + s.h % 3, s.k, s.due, s.payable, s.receivable,
      case when coalesce(s.payable, s.receivable) is not null then s.amount_unit end,
      s.responsible_user_id, '{}'::jsonb,
      case when s.state = ${lit(TaskState.Success)} then jsonb_build_object('finishDate', (s.due - s.h % 5)::text, 'description', '按期完成') end,
      case when s.state = ${lit(TaskState.Success)} then coalesce(s.receivable, s.payable) end,
      case when s.state = ${lit(TaskState.Success)} then (s.due - s.h % 5)::timestamp at time zone ${organisationZone} + interval '10 hours' end,
      case when s.state = ${lit(TaskState.Success)} then s.responsible_user_id end,
      s.responsible_user_id, s.create_time, s.create_time, case when s.state = ${lit(TaskState.Success)} then 2 else 1 end
    from stated s`);

  // A fifth of the plans chain their rows: each row waits for the one before it. Seeded as they
  // were made, not as a later change of the tasks: the relations' triggers (migration 0037) would
  // give each a new version and update time, so each task takes its one predecessor here.
  await tx.execute(sql`alter table performance_task_relations disable trigger user`);
  await tx.execute(sql`
    with chained as (
      insert into performance_task_relations (task_id, front_task_id)
      select t.id, f.id
      from performance_tasks t
      join performance_tasks f on f.plan_id = t.plan_id and f.row_index = t.row_index - 1
      where t.plan_id is not null and ${hash(sql`t.contract_id`, 'chain')} % 5 = 0
      returning task_id, front_task_id
    )
    update performance_tasks t set front_task_ids = array[c.front_task_id] from chained c where c.task_id = t.id`);
  await tx.execute(sql`alter table performance_task_relations enable trigger user`);

  const quickTasks = await seedQuickTasks(tx, input, random, newId, today);
  await tx.insert(reminderSettings).values(input.users.filter((u) => demoUsers.some((d) => d.username === u.username)).map((u, i) => ({ userId: u.id, settings: demoReminderSettings(i) })));
  return { performances: performanceRows.length, plans: rowCount(plans), tasks: rowCount(tasks) + quickTasks };
}

/** A few quick tasks (no contract) for each demo user, some overdue, one finished. */
async function seedQuickTasks(tx: Executor, input: PerformanceSeedInput, random: Random, newId: () => string, today: string): Promise<number> {
  const subjects = ['跟进供应商报价', '整理季度履约台账', '确认发票寄送地址', '提醒客户签收验收单', '核对银行回单'];
  const owners = input.users.filter((u) => demoUsers.some((d) => d.username === u.username));
  const rows = owners.flatMap((owner) =>
    subjects.slice(0, 3).map((_, i) => {
      const offset = random.int(-10, 20);
      const due = organisationDay(new Date(input.baseDate.getTime() + offset * 86_400_000));
      const finished = i === 0 && offset < 0;
      return {
        id: newId(),
        organisationId: input.organisationId,
        name: random.pick(subjects),
        type: 'custom',
        state: finished ? TaskState.Success : openStateFor(due, today),
        level: random.int(1, 3),
        expirationTime: due,
        leaderUserId: owner.id,
        values: { performanceDate: due },
        completionValues: finished ? { description: '已完成' } : null,
        finishedAt: finished ? input.baseDate : null,
        finishedBy: finished ? owner.id : null,
        createdBy: owner.id,
        createTime: input.baseDate,
        updateTime: input.baseDate,
      };
    }),
  );
  if (rows.length > 0) await tx.insert(performanceTasks).values(rows);
  return rows.length;
}

/** Reminder settings that differ a little per demo user, so the desktop reminders have variety. */
function demoReminderSettings(variant: number): ReminderSettings {
  const times = ['09:00', '08:30', '14:00', '17:30'];
  return Object.fromEntries(
    reminderTaskKinds.map((kind, i) => [
      kind,
      {
        timeNode:
          (variant + i) % 3 === 0
            ? { reminderTypes: ['threeDaysBefore', 'onDue'], otherTimes: [] }
            : (variant + i) % 3 === 1
              ? { reminderTypes: ['oneWeekBefore', 'other'], otherTimes: ['oneMonth'] }
              : { reminderTypes: ['onDue'], otherTimes: [] },
        condition: { reminderType: 'weekly' },
        overTime: { reminderType: variant % 2 === 0 ? 'daily' : 'weekly' },
        reminderTime: times[variant % times.length]!,
      },
    ]),
  ) as ReminderSettings;
}
