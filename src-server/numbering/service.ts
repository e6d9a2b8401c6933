import { and, asc, eq, inArray, ne, not, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { checkDuplicateQuerySchema, saveAbbrSettingSchema, saveNumberingRulesSchema } from '../../src-shared/api/numbering';
import { RuleScope } from '../../src-shared/domain/enums';
import type { AbbrSetting, DuplicateResult, NumberingKind, NumberingRuleRow, PreviewRule } from '../../src-shared/domain/numbering';
import { groupByNumber } from '../../src-shared/form/field-config';
import { AppFailure, invalidFields, reason } from '../../src-shared/errors';
import { formatNumber, periodKey, recountOf, type NumberPrefix } from '../../src-shared/rules/numbering';
import { nextSerial } from '../../src-shared/rules/numbering-preview';
import { applicableRule } from '../../src-shared/rules/numbering-scope';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { checkIfMatch } from '../http/write-safety';
import { contracts, contractTypes, departments, templates, users } from '../db/schema';
import { numberCounters, numberEditors, numberingAbbrSettings, numberingRules, userMainDepartments } from './schema';

// Numbering rules, abbreviations, editors and the allocator (spec 3, 4, 6, 7 "Numbering").

type Rule = typeof numberingRules.$inferSelect;

export function requireAdmin(user: SessionUser, what: string): void {
  if (user.role !== 'admin') throw new AppFailure('forbidden', `only administrators may ${what}`, undefined, reason('adminsOnly'));
}

const scopeIdOf = (scopeKey: string) => (scopeKey === '' ? null : scopeKey);

function toRule(row: Rule): NumberingRuleRow {
  const { organisationId: _o, kind: _k, scopeKey, updateTime: _u, ...rest } = row;
  return { ...rest, scopeId: scopeIdOf(scopeKey) };
}

function toAbbr(row: typeof numberingAbbrSettings.$inferSelect): AbbrSetting {
  return { id: row.id, ruleScope: row.ruleScope, scopeId: scopeIdOf(row.scopeKey), abbr: row.abbr, dateFormat: row.dateFormat, version: row.version };
}

export async function listContractTypes(db: ServerDb, user: SessionUser) {
  const { organisationId } = user;
  const list = await db
    .select({ id: contractTypes.id, name: contractTypes.name, parentId: contractTypes.parentId })
    .from(contractTypes)
    .where(eq(contractTypes.organisationId, organisationId))
    .orderBy(asc(contractTypes.sortOrder), asc(contractTypes.name));
  return { list };
}

/** The scope id must name a contract type (scope 1) or department (scopes 2, 3) of the organisation. */
async function checkScopeId(db: ServerDb, organisationId: string, ruleScope: RuleScope, scopeId: string | null, path: string): Promise<string> {
  if (ruleScope === RuleScope.Default) {
    if (scopeId !== null) throw invalidFields([{ path, message: 'the default scope takes no scopeId' }]);
    return '';
  }
  const table = ruleScope === RuleScope.ContractType ? contractTypes : departments;
  const what = ruleScope === RuleScope.ContractType ? 'contract type' : 'department';
  if (scopeId === null) throw invalidFields([{ path, message: `a ${what} is required for this scope` }]);
  const [found] = await db.select({ id: table.id }).from(table).where(and(eq(table.id, scopeId), eq(table.organisationId, organisationId)));
  if (!found) throw new AppFailure('not_found', `${what} ${scopeId} does not exist`);
  return scopeId;
}

export async function designateDepartment(db: ServerDb, user: SessionUser, body: { userId: string; departmentId: string }) {
  requireAdmin(user, 'designate main departments');
  const { organisationId } = user;
  const [target] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, body.userId), eq(users.organisationId, organisationId)));
  if (!target) throw new AppFailure('not_found', `user ${body.userId} does not exist`);
  await checkScopeId(db, organisationId, RuleScope.InitiatorMainDepartment, body.departmentId, 'departmentId');
  await db
    .insert(userMainDepartments)
    .values(body)
    .onConflictDoUpdate({ target: userMainDepartments.userId, set: { departmentId: body.departmentId } });
  return body;
}

export async function listRules(db: ServerDb, user: SessionUser, kind: NumberingKind) {
  const { organisationId } = user;
  const rows = await db
    .select()
    .from(numberingRules)
    .where(and(eq(numberingRules.organisationId, organisationId), eq(numberingRules.kind, kind)))
    .orderBy(asc(numberingRules.ruleScope), asc(numberingRules.scopeKey));
  const inUse = rows.find((row) => row.inUse);
  return { ruleScope: inUse?.ruleScope ?? null, list: rows.map(toRule) };
}

/**
 * Saves the rule set of one scope and puts it in use; the rules of other scopes stay (with their
 * counters) but are no longer used. A rule keeps its id, so its counters survive an edit.
 */
export async function saveRules(db: ServerDb, user: SessionUser, kind: NumberingKind, body: z.output<typeof saveNumberingRulesSchema>) {
  requireAdmin(user, 'change numbering rules');
  const { organisationId } = user;
  const keys = await Promise.all(body.rules.map((rule, i) => checkScopeId(db, organisationId, body.ruleScope, rule.scopeId, `rules.${i}.scopeId`)));
  const duplicated = keys.find((key, i) => keys.indexOf(key) !== i);
  if (duplicated !== undefined) {
    const message = `two rules for the same ${duplicated === '' ? 'default scope' : duplicated}`;
    throw new AppFailure('validation_failed', `validation failed: rules: ${message}`, [{ path: 'rules', message }]);
  }
  await db.transaction(async (tx) => {
    await tx
      .update(numberingRules)
      .set({ inUse: false, version: sql`${numberingRules.version} + 1`, updateTime: new Date() })
      .where(
        and(
          eq(numberingRules.organisationId, organisationId),
          eq(numberingRules.kind, kind),
          eq(numberingRules.inUse, true),
          not(and(eq(numberingRules.ruleScope, body.ruleScope), inArray(numberingRules.scopeKey, keys))!),
        ),
      );
    for (const [i, rule] of body.rules.entries()) {
      const stored = {
        digits: rule.digits,
        isNatural: rule.isNatural,
        startNumber: rule.startNum,
        resetStartNumber: rule.reStartNum,
        resetCycle: rule.resetCycle,
        recount: recountOf(rule.resetCycle),
        inUse: true,
      };
      await tx
        .insert(numberingRules)
        .values({ id: uuidv7(), organisationId, kind, ruleScope: body.ruleScope, scopeKey: keys[i]!, ...stored })
        .onConflictDoUpdate({
          target: [numberingRules.organisationId, numberingRules.kind, numberingRules.ruleScope, numberingRules.scopeKey],
          set: { ...stored, version: sql`${numberingRules.version} + 1`, updateTime: new Date() },
        });
    }
  });
  return listRules(db, user, kind);
}

export async function listAbbrSettings(db: ServerDb, user: SessionUser, kind: NumberingKind) {
  const { organisationId } = user;
  const rows = await db
    .select()
    .from(numberingAbbrSettings)
    .where(and(eq(numberingAbbrSettings.organisationId, organisationId), eq(numberingAbbrSettings.kind, kind)))
    .orderBy(asc(numberingAbbrSettings.ruleScope), asc(numberingAbbrSettings.scopeKey));
  return { list: rows.map(toAbbr) };
}

/** One abbreviation per scope and contract type or department: saving again replaces it. */
export async function saveAbbrSetting(db: ServerDb, user: SessionUser, kind: NumberingKind, body: z.output<typeof saveAbbrSettingSchema>) {
  requireAdmin(user, 'change numbering abbreviations');
  const { organisationId } = user;
  const scopeKey = await checkScopeId(db, organisationId, body.ruleScope, body.scopeId, 'scopeId');
  const [row] = await db
    .insert(numberingAbbrSettings)
    .values({ id: uuidv7(), organisationId, kind, ruleScope: body.ruleScope, scopeKey, abbr: body.abbr, dateFormat: body.dateFormat })
    .onConflictDoUpdate({
      target: [numberingAbbrSettings.organisationId, numberingAbbrSettings.kind, numberingAbbrSettings.ruleScope, numberingAbbrSettings.scopeKey],
      set: { abbr: body.abbr, dateFormat: body.dateFormat, version: sql`${numberingAbbrSettings.version} + 1`, updateTime: new Date() },
    })
    .returning();
  return toAbbr(row!);
}

export async function deleteAbbrSetting(db: ServerDb, user: SessionUser, kind: NumberingKind, id: string, version: number | undefined) {
  requireAdmin(user, 'change numbering abbreviations');
  const { organisationId } = user;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(numberingAbbrSettings)
      .where(and(eq(numberingAbbrSettings.id, id), eq(numberingAbbrSettings.organisationId, organisationId), eq(numberingAbbrSettings.kind, kind)))
      .for('update');
    if (!row) throw new AppFailure('not_found', `abbreviation setting ${id} does not exist`);
    await checkIfMatch('the abbreviation setting', row.version, version, () => toAbbr(row));
    await tx.delete(numberingAbbrSettings).where(eq(numberingAbbrSettings.id, id));
    return { id, deleted: true as const };
  });
}

export async function listEditors(db: ServerDb, user: SessionUser) {
  const { organisationId } = user;
  const rows = await db.select({ userId: numberEditors.userId }).from(numberEditors).where(eq(numberEditors.organisationId, organisationId)).orderBy(asc(numberEditors.userId));
  return { editors: rows.map((row) => row.userId) };
}

export async function saveEditors(db: ServerDb, user: SessionUser, editors: readonly string[]) {
  requireAdmin(user, 'save the contract-number editors');
  const { organisationId } = user;
  const wanted = [...new Set(editors)];
  if (wanted.length > 0) {
    const found = await db.select({ id: users.id }).from(users).where(and(inArray(users.id, wanted), eq(users.organisationId, organisationId)));
    const missing = wanted.filter((id) => !found.some((row) => row.id === id));
    if (missing.length > 0) throw new AppFailure('not_found', `users ${missing.join(', ')} do not exist`);
  }
  await db.transaction(async (tx) => {
    await tx.delete(numberEditors).where(eq(numberEditors.organisationId, organisationId));
    if (wanted.length > 0) await tx.insert(numberEditors).values(wanted.map((userId) => ({ organisationId, userId })));
  });
  return listEditors(db, user);
}

export async function isNumberEditor(db: ServerDb, userId: string): Promise<boolean> {
  const [row] = await db.select({ userId: numberEditors.userId }).from(numberEditors).where(eq(numberEditors.userId, userId));
  return row !== undefined;
}

/** What chooses a rule: who initiates, and the contract type. */
export interface NumberingContext {
  organisationId: string;
  userId: string;
  departmentId: string | null;
  contractTypeId: string | null;
}

/** The scope keys a context matches under a rule scope, most specific first (see ScopeKeys). */
async function scopeKeysFor(db: ServerDb, ruleScope: Exclude<RuleScope, typeof RuleScope.Default>, context: NumberingContext): Promise<string[]> {
  switch (ruleScope) {
    case RuleScope.ContractType:
      return context.contractTypeId ? [context.contractTypeId] : [];
    case RuleScope.InitiatorMainDepartment: {
      const [main] = await db.select({ id: userMainDepartments.departmentId }).from(userMainDepartments).where(eq(userMainDepartments.userId, context.userId));
      const id = main?.id ?? context.departmentId;
      return id ? [id] : [];
    }
    case RuleScope.InitiatorDepartmentTree: {
      // A department's rule also covers its subordinate departments: the nearest ancestor wins.
      const all = await db.select({ id: departments.id, parentId: departments.parentId }).from(departments).where(eq(departments.organisationId, context.organisationId));
      const parentOf = new Map(all.map((d) => [d.id, d.parentId]));
      const chain: string[] = [];
      for (let id = context.departmentId; id && !chain.includes(id); id = parentOf.get(id) ?? null) chain.push(id);
      return chain;
    }
  }
}

/** The rule in use for this context (the shared choice), with its abbreviation (falling back to the default scope's). */
async function ruleFor(db: ServerDb, kind: NumberingKind, context: NumberingContext): Promise<{ rule: Rule; prefix: NumberPrefix } | undefined> {
  const inUse = await db
    .select()
    .from(numberingRules)
    .where(and(eq(numberingRules.organisationId, context.organisationId), eq(numberingRules.kind, kind), eq(numberingRules.inUse, true)));
  const keys = new Map<RuleScope, readonly string[]>();
  for (const scope of new Set(inUse.map((rule) => rule.ruleScope))) {
    if (scope !== RuleScope.Default) keys.set(scope, await scopeKeysFor(db, scope, context));
  }
  const chosen = applicableRule(
    inUse.map((rule) => ({ rule, ruleScope: rule.ruleScope, scopeId: scopeIdOf(rule.scopeKey) })),
    (scope) => keys.get(scope) ?? [],
  );
  if (!chosen) return undefined;
  return { rule: chosen.rule, prefix: await prefixFor(db, chosen.rule) };
}

async function prefixFor(db: ServerDb, rule: Rule): Promise<NumberPrefix> {
  const settings = await db
    .select()
    .from(numberingAbbrSettings)
    .where(and(eq(numberingAbbrSettings.organisationId, rule.organisationId), eq(numberingAbbrSettings.kind, rule.kind)));
  const own = settings.find((s) => s.ruleScope === rule.ruleScope && s.scopeKey === rule.scopeKey);
  const fallback = settings.find((s) => s.ruleScope === RuleScope.Default);
  const setting = own ?? fallback;
  return { abbr: setting?.abbr ?? '', dateFormat: setting?.dateFormat ?? null };
}

/** Whether a rule is in use for the context: then the number is the rules' to give (spec 4). */
export async function numberingRuleApplies(db: ServerDb, kind: NumberingKind, context: NumberingContext): Promise<boolean> {
  return (await ruleFor(db, kind, context)) !== undefined;
}

/**
 * Hands out the next number of the rule that applies, or undefined when no rule is in use for
 * the context. Must run inside the transaction that stores the number: the counter row stays
 * locked until it commits, so concurrent allocations queue and each gets its own serial.
 */
export async function allocateNumber(tx: ServerDb, kind: NumberingKind, context: NumberingContext, at: Date): Promise<string | undefined> {
  const found = await ruleFor(tx, kind, context);
  if (!found) return undefined;
  const { rule, prefix } = found;
  const period = periodKey(rule.resetCycle, at);
  const earlierPeriod = sql`exists (select 1 from ${numberCounters} where ${numberCounters.ruleId} = ${rule.id} and ${numberCounters.scopeKey} = ${rule.scopeKey})`;
  const [row] = await tx
    .insert(numberCounters)
    .values({
      ruleId: rule.id,
      scopeKey: rule.scopeKey,
      period,
      lastSerial: sql`case when ${earlierPeriod} then ${rule.resetStartNumber}::integer else ${rule.startNumber}::integer end`,
    })
    .onConflictDoUpdate({
      target: [numberCounters.ruleId, numberCounters.scopeKey, numberCounters.period],
      set: { lastSerial: sql`${numberCounters.lastSerial} + 1`, updateTime: at },
    })
    .returning({ serial: numberCounters.lastSerial });
  return formatNumber(rule, prefix, row!.serial, at);
}

const referenceFieldsByScope: Record<RuleScope, string[]> = {
  [RuleScope.Default]: [],
  [RuleScope.ContractType]: ['contractType'],
  [RuleScope.InitiatorMainDepartment]: ['department'],
  [RuleScope.InitiatorDepartmentTree]: ['department'],
};

/** A rule as the preview popover shows it, with the number it would hand out next. */
async function previewOf(db: ServerDb, rule: Rule, at: Date): Promise<PreviewRule> {
  const period = periodKey(rule.resetCycle, at);
  const kept = await db
    .select({ period: numberCounters.period, lastSerial: numberCounters.lastSerial })
    .from(numberCounters)
    .where(and(eq(numberCounters.ruleId, rule.id), eq(numberCounters.scopeKey, rule.scopeKey)));
  const counters = { lastInPeriod: kept.find((c) => c.period === period)?.lastSerial ?? null, counted: kept.length > 0 };
  return {
    id: rule.id,
    format: formatNumber(rule, await prefixFor(db, rule), nextSerial(rule, counters), at),
    conditionType: rule.ruleScope,
    values: rule.scopeKey === '' ? [] : [rule.scopeKey],
    referenceFields: referenceFieldsByScope[rule.ruleScope],
    counters,
  };
}

export async function previewRules(db: ServerDb, user: SessionUser, kind: NumberingKind, at: Date) {
  const { organisationId } = user;
  const rules = await db
    .select()
    .from(numberingRules)
    .where(and(eq(numberingRules.organisationId, organisationId), eq(numberingRules.kind, kind), eq(numberingRules.inUse, true)))
    .orderBy(asc(numberingRules.scopeKey));
  return { list: await Promise.all(rules.map((rule) => previewOf(db, rule, at))) };
}

/** The rule a contract drafted now by this user with this contract type would be numbered by. */
export async function autoPreview(db: ServerDb, user: SessionUser, contractTypeId: string | undefined, at: Date) {
  const { organisationId } = user;
  const context = { organisationId, userId: user.id, departmentId: user.departmentId, contractTypeId: contractTypeId ?? null };
  const found = await ruleFor(db, 'contract', context);
  return { list: found ? [await previewOf(db, found.rule, at)] : [] };
}

/** What carries a number of the kind: contracts, or the organisation's templates. */
function numbered(kind: NumberingKind, organisationId: string) {
  return kind === 'contract'
    ? { id: contracts.id, name: contracts.name, number: contracts.contractNumber, table: contracts, scope: undefined }
    : { id: templates.id, name: templates.name, number: templates.templateNumber, table: templates, scope: eq(templates.organisationId, organisationId) };
}

/**
 * Duplicate check (spec 5, 7): the contracts (or templates) carrying one number, or with
 * checkAll every number carried more than once. Contracts are listed as far as the viewer sees them.
 */
export async function checkDuplicate(db: ServerDb, user: SessionUser, kind: NumberingKind, query: z.output<typeof checkDuplicateQuerySchema>): Promise<{ list: DuplicateResult[] }> {
  const { organisationId } = user;
  const subject = numbered(kind, organisationId);
  const single = query.checkAll !== 'true' && query.contractNumber ? query.contractNumber : undefined;
  const rows = await db
    .select({ id: subject.id, name: subject.name, number: subject.number })
    .from(subject.table)
    .where(
      and(
        subject.scope,
        kind === 'contract' ? visibleTo(user) : undefined,
        single !== undefined ? eq(subject.number, single) : sql`${subject.number} in (select ${subject.number} from ${subject.table} where ${subject.number} is not null ${subject.scope ? sql`and ${subject.scope}` : sql``} group by 1 having count(*) > 1)`,
        query.excludeId ? ne(subject.id, query.excludeId) : undefined,
      ),
    )
    .orderBy(asc(subject.number), asc(subject.id));
  return groupByNumber(rows);
}

/** Whether another contract (or template) already carries the number; ignores visibility. */
export async function numberTaken(db: ServerDb, kind: NumberingKind, organisationId: string, number: string, exceptId: string | null): Promise<boolean> {
  const subject = numbered(kind, organisationId);
  const [row] = await db
    .select({ id: subject.id })
    .from(subject.table)
    .where(and(subject.scope, eq(subject.number, number), exceptId ? ne(subject.id, exceptId) : undefined))
    .limit(1);
  return row !== undefined;
}

/** Refuses a number another contract (or template) already carries: 409 with the spec's wording. */
/** Refuses a number another record of the kind carries; `path` names the field of the request that gave it (a form shows the refusal there). */
export async function refuseDuplicateNumber(db: ServerDb, kind: NumberingKind, organisationId: string, number: string, exceptId: string | null, path?: string): Promise<void> {
  if (await numberTaken(db, kind, organisationId, number, exceptId)) {
    const message = `this number duplicates the following ${kind} numbers: ${number}`;
    throw new AppFailure('conflict', message, path === undefined ? undefined : [{ path, message }], reason('numberDuplicated', { kind, number }));
  }
}
