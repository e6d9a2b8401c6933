import type { FilterCondition, LedgerField, LedgerRow, LedgerSearch } from '../../../src-shared/domain/ledger';
import { catalogueField } from '../../../src-shared/domain/ledger-fields';
import { TaskState } from '../../../src-shared/domain/enums';
import { AppFailure } from '../../../src-shared/errors';
import { organisationDay, pendingStates } from '../../../src-shared/rules/performance';
import { ledgerRowReader, planSearch, type FilterPlan, type SearchPlan } from '../../../src-shared/rules/ledger-search';
import { indexPresent } from '../data/deferred-indexes';
import { untilReplicaChanges, type OpenReplica, type ReplicaConnection } from '../data/replica';
import { readLedgerFields } from './field-store';
import { readScenes } from './scene-store';

// performances/search answered by the replica (issue 14): the same plan as the server's
// (src-shared/rules/ledger-search.ts) turned into SQLite over the pulled tasks and contracts.
// The replica holds exactly the contracts the viewer may see, so visibility is the join itself.
// Where SQLite and PostgreSQL differ, two functions speak PostgreSQL's dialect: ILIKE (case
// folded per character, as lower() does) and ->> (a JSON value as jsonb's text).

/** The SQLite expression of each catalogue field (and the currency of a money field). */
const columns: Record<string, { expression: string; unit?: string }> = {
  name: { expression: 't.name' },
  taskType: { expression: 't.type' },
  taskState: { expression: 't.state' },
  expirationTime: { expression: 't.expiration_time' },
  receivableAmount: { expression: 't.receivable_amount', unit: 't.amount_unit' },
  payableAmount: { expression: 't.payable_amount', unit: 't.amount_unit' },
  finishedAmount: { expression: 't.finished_amount', unit: 't.amount_unit' },
  taskLeader: { expression: 't.leader_user_id' },
  createTime: { expression: 't.create_time' },
  updateTime: { expression: 't.update_time' },
  contractName: { expression: 'c.name' },
  contractNumber: { expression: 'c.contract_number' },
  contractStatus: { expression: 'c.status' },
  contractTypeName: { expression: 'c.contract_type_name' },
  templateName: { expression: 'c.template_name' },
  contractAmount: { expression: 'c.amount', unit: 'c.amount_unit' },
  responsiblePerson: { expression: 'c.responsible_user_id' },
  signDate: { expression: 'c.sign_date' },
};

function columnOf(field: string): string {
  const column = columns[field];
  if (!column) throw new Error(`the replica's ledger has no column for ${field}`);
  return column.expression;
}

/**
 * What a column shows and sorts by on the plan's day: the task state as its effective state (the
 * server's effectiveStateSql). The day is a checked yyyy-MM-dd, written into the statement's text.
 */
function shownColumnOf(field: string, plan: SearchPlan): string {
  if (catalogueField(field)?.kind !== 'task-state') return columnOf(field);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(plan.today)) throw new Error(`not a day: ${plan.today}`);
  return `(case when ${columnOf(field)} in (${pendingStates.join(', ')}) and t.expiration_time < '${plan.today}' then ${TaskState.Overdue} else ${columnOf(field)} end)`;
}

/**
 * A pulled task's own copy of its contract's status (migration 0028, kept by triggers): the
 * status as contract_status_counts keys it (0: none), NULL while the replica lacks the contract.
 * It stands for the contract's status only where the contract table is what the user sees (no
 * queued contract edit), and only in the base task table.
 */
const taskContractStatus = 't.contract_status';

/** A contract-status filter by values: the one contract condition the task rows answer alone. */
const isStatusSet = (plan: FilterPlan): plan is Extract<FilterPlan, { op: 'set' }> => plan.op === 'set' && plan.field === 'contractStatus';

/** Whether a filter reads the contract row (the task's status copy aside, when `statusOnTask`). */
function readsContract(plan: FilterPlan, statusOnTask: boolean): boolean {
  if (plan.op === 'form') return true;
  if (plan.op === 'state') return false;
  if (statusOnTask && isStatusSet(plan)) return false;
  return columnOf(plan.field).startsWith('c.');
}

/** Whether finding (and ordering) the plan's rows needs each task's contract row, not only the page's. */
function findsByContract(plan: SearchPlan, statusOnTask: boolean): boolean {
  return plan.q !== undefined || (plan.sort !== null && columnOf(plan.sort.field).startsWith('c.')) || plan.filters.some((filter) => readsContract(filter.plan, statusOnTask));
}

/** lower() of PostgreSQL under a UTF-8 ctype: each character folded on its own (never to two). */
function foldCase(text: string): string {
  let folded = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    folded += [...lower].length === 1 ? lower : ch;
  }
  return folded;
}

/** jsonb's text of a value: keys shorter first then by bytes, ", " and ": " between items. */
function jsonbText(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value as object).sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((key) => `${JSON.stringify(key)}: ${jsonbText((value as Record<string, unknown>)[key])}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** formValues ->> id: a string as itself, JSON null or a missing key as NULL, anything else as jsonb text. */
function formText(json: string | null, id: string): string | null {
  if (json === null) return null;
  const value = (JSON.parse(json) as Record<string, unknown>)[id];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : jsonbText(value);
}

function registerDialect(sqlite: ReplicaConnection): void {
  sqlite.function('pg_ilike_contains', { deterministic: true }, (text: unknown, word: unknown) =>
    text === null ? null : foldCase(String(text)).includes(foldCase(String(word))) ? 1 : 0,
  );
  sqlite.function('pg_json_text', { deterministic: true }, (json: unknown, id: unknown) => formText(json as string | null, String(id)));
}

interface Query {
  sql: string;
  params: unknown[];
}

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * One planned filter as SQLite: the server's conditions, with NULL meaning "not matched" as there.
 * `statusOnTask`: a status filter reads the task's copy of its contract's status; task states
 * are read on `today`.
 */
function filterSql(plan: FilterPlan, params: unknown[], statusOnTask: boolean, today: string): string {
  const contains = (expression: string, word: string) => {
    params.push(word);
    return `pg_ilike_contains(${expression}, ?)`;
  };
  const oneOf = (expression: string, values: readonly unknown[]) => {
    params.push(...values);
    return `${expression} in (${placeholders(values)})`;
  };
  switch (plan.op) {
    case 'form': {
      const text = () => {
        params.push(plan.field);
        return 'pg_json_text(c.form_values, ?)';
      };
      const parts = [plan.word ? contains(text(), plan.word) : null, plan.values ? oneOf(text(), plan.values) : null].filter((p) => p !== null);
      return `(${parts.join(' or ')})`;
    }
    case 'text': {
      const column = columnOf(plan.field);
      const parts = [plan.word ? contains(column, plan.word) : null, plan.values ? oneOf(column, plan.values) : null].filter((p) => p !== null);
      return `(${parts.join(' and ')})`;
    }
    case 'set':
      // The copy's 0 is "no status", which `c.status in (...)` never matches.
      if (statusOnTask && isStatusSet(plan)) return oneOf(taskContractStatus, (plan.values as unknown[]).filter((value) => value !== 0));
      return oneOf(columnOf(plan.field), plan.values);
    case 'state': {
      // Plain conditions on the stored state and due date: the (due date, state) index serves them.
      const state = columnOf(plan.field);
      const due = (condition: string) => {
        params.push(today);
        return condition;
      };
      const parts = [
        plan.always.length > 0 ? oneOf(state, plan.always) : null,
        plan.beforeDue.length > 0 ? `(${oneOf(state, plan.beforeDue)} and (t.expiration_time is null or ${due('t.expiration_time >= ?')}))` : null,
        plan.afterDue.length > 0 ? `(${oneOf(state, plan.afterDue)} and ${due('t.expiration_time < ?')})` : null,
      ].filter((part) => part !== null);
      return `(${parts.join(' or ')})`;
    }
    case 'range': {
      const column = columnOf(plan.field);
      const parts: string[] = [];
      if (plan.from !== undefined) {
        params.push(plan.from);
        parts.push(`${column} >= ?`);
      }
      if (plan.to !== undefined) {
        params.push(plan.to);
        // Days on an instant: up to the end of the upper day.
        parts.push(plan.kind === 'timestamp' ? `${column} < date(?, '+1 day')` : `${column} <= ?`);
      }
      return `(${parts.join(' and ')})`;
    }
  }
}

/**
 * Where the export's next batch starts. Its rows come in two phases, each one plain range on the
 * indexes: first the rows with a sort value, then (nulls last in every order here) those without;
 * `value` and `id` are the last row read in the phase (none: the phase's start).
 */
interface SortKey {
  nulls: boolean;
  /** `unit`: the currency of a money sort's last row. */
  last?: { value: unknown; id: string; unit?: unknown };
}

/**
 * A money sort's currency key: amounts are ordered within each currency, the currencies by their
 * code, never compared across them (the server's order, src-server/ledger/search.ts); rows without
 * an amount come last, by id alone. Undefined for other sorts.
 */
function currencyOrder(field: string): string | undefined {
  const unit = columns[field]?.unit;
  return unit && `case when ${columnOf(field)} is null then '' else ${unit} end`;
}

/** The plan's sort column and direction: the scene's, or the newest update first. */
function sortOf(plan: SearchPlan): { column: string; alias: string; ascending: boolean; unit?: string } {
  return plan.sort
    ? { column: shownColumnOf(plan.sort.field, plan), alias: plan.sort.field, ascending: plan.sort.ascending, ...(columns[plan.sort.field]?.unit && { unit: columns[plan.sort.field]!.unit }) }
    : { column: 't.update_time', alias: 'updateTimeValue', ascending: false };
}

/** The rows of the key's phase after its last row, in orderSql's order: by the sort column, then by id. */
function afterSql(plan: SearchPlan, key: SortKey, params: unknown[]): string {
  const { column, ascending, unit } = sortOf(plan);
  const after = ascending ? '>' : '<';
  if (key.nulls) {
    if (!key.last) return `${column} is null`;
    params.push(key.last.id);
    return `(${column} is null and t.id ${after} ?)`;
  }
  if (!key.last) return `${column} is not null`;
  if (unit) {
    params.push(key.last.unit, key.last.unit, key.last.value, key.last.value, key.last.id);
    return `(${column} is not null and (${unit} > ? or (${unit} = ? and ${column} ${after}= ? and (${column} ${after} ? or t.id ${after} ?))))`;
  }
  params.push(key.last.value, key.last.value, key.last.id);
  return `(${column} ${after}= ? and (${column} ${after} ? or t.id ${after} ?))`;
}

/**
 * The base table's indexes led by a sort column. The export's batches walk them in order, so each
 * batch reads about its own rows and stops (linear in all); left to itself the planner prefers a
 * filter's index and sorts every remaining row again for each batch.
 */
const sortIndexes: Record<string, string> = { expirationTime: 'performance_tasks_card', updateTime: 'performance_tasks_update_time' };

function indexedBy(sqlite: ReplicaConnection, plan: SearchPlan): string {
  const index = sortIndexes[plan.sort?.field ?? 'updateTime'];
  // A first sync sets the sort indexes aside (task-upkeep.ts): until it ends the planner goes without.
  return index && indexPresent(sqlite, index) ? `indexed by ${index}` : '';
}

/** The search's order; within one keyset phase (all sort values null, or none) without the nulls clause, so an index on the column can give it. */
function orderSql(plan: SearchPlan, key?: SortKey): string {
  if (!plan.sort) return 't.update_time desc, t.id desc';
  const direction = plan.sort.ascending ? 'asc' : 'desc';
  const column = shownColumnOf(plan.sort.field, plan);
  const currency = currencyOrder(plan.sort.field);
  if (currency) return `${column} is null, ${currency}, ${column} ${direction}, t.id ${direction}`;
  return `${column} ${direction}${key ? '' : ' nulls last'}, t.id ${direction}`;
}

/**
 * The where clause of a plan over tasks `t` joined to their contracts `c`; `after` narrows it to
 * the rows after a key, `statusOnTask` reads a status filter from the task (filterSql), `extra` adds conditions.
 */
function whereSql(plan: SearchPlan, after: SortKey | undefined, statusOnTask: boolean, ...extra: string[]): Query {
  const params: unknown[] = [];
  const parts: string[] = [];
  if (plan.performanceId) {
    params.push(plan.performanceId);
    parts.push('t.performance_id = ?');
  }
  if (plan.q) {
    params.push(plan.q, plan.q, plan.q);
    parts.push('(pg_ilike_contains(t.name, ?) or pg_ilike_contains(c.name, ?) or pg_ilike_contains(c.contract_number, ?))');
  }
  for (const filter of plan.filters) parts.push(filterSql(filter.plan, params, statusOnTask, plan.today));
  if (after) parts.push(afterSql(plan, after, params));
  parts.push(...extra);
  return { sql: parts.length > 0 ? `where ${parts.join(' and ')}` : '', params };
}

/**
 * The selected columns: the shown catalogue fields, the due date (every record has it), the sort
 * field (the merge and the export's keys order by it) and the record's own values; the contract's
 * form values (large) only when a column shows a form field.
 */
function rowColumns(plan: SearchPlan): string {
  const shown = new Set(['expirationTime', ...plan.titles.map((field) => field.id), ...(plan.sort ? [plan.sort.field] : [])]);
  return [
    ...Object.entries(columns)
      .filter(([id]) => shown.has(id))
      .flatMap(([id, column]) => [`${shownColumnOf(id, plan)} as "${id}"`, ...(column.unit ? [`${column.unit} as "${id}:unit"`] : [])]),
    't.id as "taskId"', 't.type as "taskTypeValue"', 't.state as "taskStateValue"', 't.performance_id as "performanceIdValue"',
    't.create_time as "createTimeValue"', 't.update_time as "updateTimeValue"', 'c.id as "contractIdValue"', 'c.name as "contractNameValue"',
    'c.status as "contractStatusValue"', 'c.template_name as "templateNameValue"', 'c.contract_type_name as "contractTypeNameValue"',
    `${plan.titles.some((field) => !catalogueField(field.id)) ? 'c.form_values' : "'{}'"} as "formValues"`,
  ].join(', ');
}

type Row = Record<string, unknown>;

export interface SceneSearch {
  /** performances/search's answer from the replica; `people` names the people cells (the kept directory). */
  search(search: LedgerSearch, people: ReadonlyMap<string, string>): { list: LedgerRow[]; count: number };
  /** Every row the search finds, in its order, `batch` rows at a time (the export), with the count first. */
  all(search: LedgerSearch, people: ReadonlyMap<string, string>, batch: number): { count: number; titles: LedgerField[]; batches: Iterable<LedgerRow[]> };
}

/**
 * The count of an unfiltered search over the base tasks, each with its contract here (its status
 * copy set): every task, which SQLite counts by the table's pages, less the few without the copy,
 * on their own small index (migration 0037). The filter `contract_status is not null` read
 * 200,000 index entries one by one.
 */
function everyTaskCount(sqlite: ReplicaConnection): string {
  // Named: on a small or unanalysed table the planner reads a wide covering index instead. A first sync sets it aside until it ends.
  const index = 'performance_tasks_without_contract_status';
  return `select (select count(*) from performance_tasks) - (select count(*) from performance_tasks ${indexPresent(sqlite, index) ? `indexed by ${index}` : ''} where contract_status is null)`;
}

/** The plan's order over the selected columns (their aliases), for the merge of base and local rows. */
function mergedOrderSql(plan: SearchPlan, key?: SortKey): string {
  if (!plan.sort) return '"updateTimeValue" desc, "taskId" desc';
  const direction = plan.sort.ascending ? 'asc' : 'desc';
  const sorted = `"${plan.sort.field}"`;
  if (currencyOrder(plan.sort.field)) return `${sorted} is null, case when ${sorted} is null then '' else "${plan.sort.field}:unit" end, ${sorted} ${direction}, "taskId" ${direction}`;
  return `"${plan.sort.field}" ${direction}${key ? '' : ' nulls last'}, "taskId" ${direction}`;
}

/** `today`: the organisation's day, which the task states are read on (the core's clock). */
export function createSceneSearch({ sqlite, db }: OpenReplica, today: () => string = () => organisationDay(new Date())): SceneSearch {
  registerDialect(sqlite);
  const statements = new Map<string, ReturnType<ReplicaConnection['prepare']>>();
  // Statements name their day (shownColumnOf): yesterday's are dropped, not kept for ever.
  let statementsDay = '';
  const prepared = (text: string) => statements.get(text) ?? statements.set(text, sqlite.prepare(text)).get(text)!;
  const hasLocal = sqlite.prepare('select exists (select 1 from contracts_local) as any');
  const pendingTasks = sqlite.prepare('select count(*) from performance_tasks_local').pluck();
  // The scenes and field definitions are read (and parsed) again only after the replica changed.
  const scenes = untilReplicaChanges(sqlite, () => new Map(readScenes(db).map((scene) => [scene.id, scene])));
  const fields = untilReplicaChanges(sqlite, () => readLedgerFields(db));

  function planOf(search: LedgerSearch): SearchPlan {
    const scene = search.standingBookID ? scenes().get(search.standingBookID) : undefined;
    if (search.standingBookID && !scene) throw new AppFailure('not_found', `scene not found: ${search.standingBookID}`);
    const day = today();
    if (day !== statementsDay) {
      statements.clear();
      statementsDay = day;
    }
    return planSearch(search, fields(), scene && { titleIDs: scene.titleIDs, performanceId: scene.performanceId, filter: scene.filter as FilterCondition[], sortField: scene.sortField }, day);
  }

  /** The SQL of the plan's page and count, over the base tasks or, with queued task edits, merged with them. */
  function queries(plan: SearchPlan) {
    // The user's unconfirmed contract edits show here as everywhere (contracts_overlay); without
    // any, the table itself, whose statuses the base tasks carry (taskContractStatus).
    const statusOnTask = !(hasLocal.get() as { any: number }).any;
    const contracts = statusOnTask ? 'contracts' : 'contracts_overlay';
    const join = `join ${contracts} c on c.id = t.contract_id`;
    // Joins whose outer side is known to be the small one: a window's keys, or the queued rows.
    // Left to itself the planner walks 200,000 tasks in the order's index (to skip the sort) and
    // probes the window's keys, or walks every contract and probes the queued rows for each.
    const fromFew = `cross join ${contracts} c on c.id = t.contract_id`;
    // Base rows are found by the task rows alone when no condition or order reads the contract;
    // the contract's presence (what the join would check) is then its status copy being set.
    // The export's batches (`after` a key) walk a sort index that lacks the status copy but holds
    // the contract's key: there the join (on the small contract index) checks the contract, rather
    // than a read of every task row walked.
    const finding = (after: SortKey | undefined) => {
      const onTask = statusOnTask && !after;
      const byContract = !onTask || findsByContract(plan, onTask);
      return { onTask, findJoin: byContract ? join : '', present: byContract ? [] : [`${taskContractStatus} is not null`] };
    };
    const selected = rowColumns(plan);
    const pending = pendingTasks.get() as number;
    /** Whether the base rows' count is every task with its contract here (everyTaskCount). */
    const countsEvery = (onTask: boolean) => onTask && plan.unfiltered && !plan.performanceId;
    // The base rows of a window (its `limit ? offset ?` left to bind), for the merge with queued
    // task edits: the window's rows are found and sorted by their keys alone, and only they are
    // then read whole (the sorter holds no wide rows).
    const baseWindow = (where: Query, after: SortKey | undefined) =>
      `select ${selected} from (select t.rowid as k from performance_tasks t ${after ? indexedBy(sqlite, plan) : ''} ${finding(after).findJoin} ${where.sql} order by ${orderSql(plan, after)} limit ? offset ?) w ` +
      `cross join performance_tasks t on t.rowid = w.k ${fromFew} order by ${orderSql(plan, after)}`;
    if (pending === 0) {
      // The window's keys, found and sorted on the indexes alone; then only its rows are read
      // whole, by key, and put in the keys' order here (an ORDER BY would sort the wide rows again).
      const rowsByKey = `select t.rowid as "rowKey", ${selected} from performance_tasks t ${join} where t.rowid in (select value from json_each(?))`;
      const rows = (after: SortKey | undefined, offset: number, limit: number): Row[] => {
        const { onTask, findJoin, present } = finding(after);
        const where = whereSql(plan, after, onTask, ...present);
        const keys = prepared(`select t.rowid from performance_tasks t ${after ? indexedBy(sqlite, plan) : ''} ${findJoin} ${where.sql} order by ${orderSql(plan, after)} limit ? offset ?`)
          .pluck()
          .all(...where.params, limit, offset) as number[];
        if (keys.length === 0) return [];
        const found = new Map((prepared(rowsByKey).all(JSON.stringify(keys)) as Row[]).map((row) => [row.rowKey, row]));
        // Each key's task has its contract: the keys query checked it (by the join or the status copy).
        return keys.map((key) => found.get(key)!);
      };
      return {
        page: (offset: number, limit: number) => rows(undefined, offset, limit),
        after: (key: SortKey, limit: number) => rows(key, 0, limit),
        count: () => {
          const { onTask, findJoin, present } = finding(undefined);
          if (countsEvery(onTask)) return prepared(everyTaskCount(sqlite)).pluck().get() as number;
          const where = whereSql(plan, undefined, onTask, ...present);
          return prepared(`select count(*) from performance_tasks t ${findJoin} ${where.sql}`).pluck().get(...where.params) as number;
        },
      };
    }
    // Queued finishes, restores, deletes and quick tasks (performance_tasks_local, as the
    // fulfilment's shown tasks read them) show at once. The base rows without a local row are
    // paged on their indexes; at most `pending` local rows precede the page, so the base rows
    // from `offset - pending` on, merged with every matching live local row, hold the page.
    // The local rows carry no status copy: they are always joined to their contracts.
    const base = (after: SortKey | undefined) => {
      const { onTask, present } = finding(after);
      return whereSql(plan, after, onTask, ...present, 't.id not in (select id from performance_tasks_local)');
    };
    const local = (after: SortKey | undefined) => whereSql(plan, after, false, 't.deleted = 0');
    const merged = (after: SortKey | undefined, baseStart: number, baseLimit: number, offset: number, limit: number) => {
      const [b, l] = [base(after), local(after)];
      return prepared(
        // The union is ordered from outside: a compound select's own order takes only plain result columns.
        `select * from (select * from (${baseWindow(b, after)}) union all select ${selected} from performance_tasks_local t ${fromFew} ${l.sql}) order by ${mergedOrderSql(plan, after)} limit ? offset ?`,
      ).all(...b.params, baseLimit, baseStart, ...l.params, limit, offset) as Row[];
    };
    return {
      page: (offset: number, limit: number) => {
        const baseStart = Math.max(0, offset - pending);
        return merged(undefined, baseStart, offset + limit - baseStart, offset - baseStart, limit);
      },
      // After a key no row is skipped: the first `limit` base rows after it hold the base's share.
      after: (key: SortKey, limit: number) => merged(key, 0, limit, 0, limit),
      // The base rows' count, less those a local row stands for, plus the live local rows: a
      // `not in` over the base would read every matching task row for its id (a whole table with
      // one queued edit), where the matching base rows count on the indexes and the local ones are few.
      count: () => {
        const { onTask, findJoin, present } = finding(undefined);
        const [b, l] = [whereSql(plan, undefined, onTask, ...present), local(undefined)];
        const every = countsEvery(onTask);
        return prepared(
          `select ${every ? `(${everyTaskCount(sqlite)})` : `(select count(*) from performance_tasks t ${findJoin} ${b.sql})`}` +
            ` - (select count(*) from performance_tasks_local x cross join performance_tasks t on t.id = x.id ${findJoin} ${b.sql})` +
            ` + (select count(*) from performance_tasks_local t ${fromFew} ${l.sql})`,
        )
          .pluck()
          .get(...(every ? [] : b.params), ...b.params, ...l.params) as number;
      },
    };
  }

  const toRows = (rows: Row[], plan: SearchPlan, people: ReadonlyMap<string, string>) => {
    const read = ledgerRowReader(plan.titles, people, String, plan.today);
    // The rows are better-sqlite3's fresh objects: their form values are parsed in place.
    return rows.map((row) => read(Object.assign(row, { formValues: JSON.parse(String(row.formValues)) as Record<string, unknown> })));
  };

  return {
    search(search, people) {
      const plan = planOf(search);
      const query = queries(plan);
      return { list: toRows(query.page(plan.offset, plan.limit), plan, people), count: query.count() };
    },
    all(search, people, batch) {
      const plan = planOf({ ...search, pageNum: 1 });
      const count = queries(plan).count();
      function* batches() {
        // Keyset paging: each batch starts after the last row's sort value and id, so no batch
        // sorts and skips the rows before it (OFFSET would make the export quadratic). Each batch
        // asks again (after the caller yields, edits may have come); a short batch ends a phase.
        let key: SortKey = { nulls: false };
        for (;;) {
          const rows = queries(plan).after(key, batch);
          if (rows.length > 0) yield toRows(rows, plan, people);
          if (rows.length === batch) {
            const last = rows[rows.length - 1]!;
            const { alias } = sortOf(plan);
            key = { nulls: key.nulls, last: { value: last[alias], id: String(last.taskId), unit: last[`${alias}:unit`] } };
          } else if (!key.nulls) key = { nulls: true };
          else return;
        }
      }
      return { count, titles: plan.titles, batches: batches() };
    },
  };
}
