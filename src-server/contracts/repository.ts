import { and, count, desc, eq, ilike, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { ContractListQuery } from '../../src-shared/api/endpoints';
import type { SyncContract } from '../../src-shared/api/sync';
import type { Contract, ContractStatistics } from '../../src-shared/domain/contract';
import { contractStatusStatisticsKey } from '../../src-shared/domain/enums';
import type { User } from '../../src-shared/domain/user';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contractAgents, contracts, contractTombstones, counterparties, departments, users } from '../db/schema';

/** Who is looking: enough of the signed-in user to decide what they may see. */
export type Viewer = Pick<User, 'id' | 'role' | 'departmentId'>;

/**
 * The columns visibility is decided on: a contract's, or a tombstone's copy of them. A tombstone
 * names one former owner per row (see the contracts_take_change_seq trigger), so it has neither a
 * business handler nor agents.
 */
export interface OwnerColumns {
  responsibleUserId: Column;
  departmentId: Column;
  businessHandlerUserId?: Column;
  /** The contract's id, to find its agents. */
  contractId?: Column;
}

const contractOwner: OwnerColumns = {
  responsibleUserId: contracts.responsibleUserId,
  departmentId: contracts.departmentId,
  businessHandlerUserId: contracts.businessHandlerUserId,
  contractId: contracts.id,
};

/** A tombstone's owner columns: the one former owner it was written for. */
export const tombstoneOwner: OwnerColumns = {
  responsibleUserId: contractTombstones.responsibleUserId,
  departmentId: contractTombstones.departmentId,
};

/**
 * Admins see every contract; staff see the contracts they are responsible for, handle as business
 * handler or act for as an agent, and those of their own department. Every read of contracts
 * (lists, the ledger search, the change feed) goes through this condition.
 */
export function visibleTo(viewer: Viewer, owner: OwnerColumns = contractOwner): SQL | undefined {
  if (viewer.role === 'admin') return undefined;
  return or(
    eq(owner.responsibleUserId, viewer.id),
    viewer.departmentId ? eq(owner.departmentId, viewer.departmentId) : undefined,
    owner.businessHandlerUserId ? eq(owner.businessHandlerUserId, viewer.id) : undefined,
    // = ANY(ARRAY(…)), not IN or EXISTS: the viewer's few agent rows are read once into an array,
    // and the whole OR stays a BitmapOr of index scans on contracts.
    owner.contractId
      ? sql`${owner.contractId} = any(array(select ${contractAgents.contractId} from ${contractAgents} where ${contractAgents.userId} = ${viewer.id}))`
      : undefined,
  );
}

/**
 * A contract joined with the names the ledger shows, plus its change sequence for the pull and
 * the form's columns the sync feed carries (the desktop's detail screen works offline).
 */
export function selectContractRows(db: ServerDb) {
  return db
    .select({
      id: contracts.id,
      name: contracts.name,
      contractNumber: contracts.contractNumber,
      status: contracts.status,
      contractTypeName: contracts.contractTypeName,
      templateName: contracts.templateName,
      counterpartName: counterparties.name,
      amount: contracts.amount,
      amountUnit: contracts.amountUnit,
      responsibleUserId: contracts.responsibleUserId,
      responsibleUserName: users.displayName,
      departmentId: contracts.departmentId,
      departmentName: departments.name,
      signDate: contracts.signDate,
      createTime: contracts.createTime,
      updateTime: contracts.updateTime,
      version: contracts.version,
      changeSeq: contracts.changeSeq,
      contractNumberAuto: contracts.contractNumberAuto,
      contractTypeId: contracts.contractTypeId,
      templateId: contracts.templateId,
      formValues: contracts.formValues,
      counterpartyId: contracts.counterpartyId,
      approvalTrail: contracts.approvalTrail,
    })
    .from(contracts)
    .leftJoin(counterparties, eq(counterparties.id, contracts.counterpartyId))
    .leftJoin(users, eq(users.id, contracts.responsibleUserId))
    .leftJoin(departments, eq(departments.id, contracts.departmentId));
}

export type ContractRow = Awaited<ReturnType<typeof selectContractRows>>[number];

/** The wire shape (`contractSchema`): money as {amount, unit}, times as ISO strings. */
export function toContract(row: ContractRow): Contract {
  const {
    amount,
    amountUnit,
    createTime,
    updateTime,
    changeSeq: _seq,
    contractNumberAuto: _auto,
    contractTypeId: _type,
    templateId: _template,
    formValues: _values,
    counterpartyId: _party,
    approvalTrail: _trail,
    ...rest
  } = row;
  return {
    ...rest,
    amount: amount !== null && amountUnit !== null ? { amount, unit: amountUnit } : null,
    createTime: createTime.toISOString(),
    updateTime: updateTime.toISOString(),
  };
}

/** The feed's shape (`syncContractSchema`). */
export function toSyncContract(row: ContractRow): SyncContract {
  const { contractNumberAuto, contractTypeId, templateId, formValues, counterpartyId, approvalTrail } = row;
  return { ...toContract(row), contractNumberAuto, contractTypeId, templateId, formValues, counterpartyId, approvalTrail };
}

export async function listContracts(db: ServerDb, viewer: Viewer, query: ContractListQuery) {
  const pattern = query.q ? containsPattern(query.q) : undefined;
  const where = and(
    visibleTo(viewer),
    query.status !== undefined ? eq(contracts.status, query.status) : undefined,
    pattern ? or(ilike(contracts.name, pattern), ilike(contracts.contractNumber, pattern)) : undefined,
  );
  return pageContracts(db, where, query);
}

/** One page of the contracts matching `where` (visibility included by the caller), newest update first, with the count. */
export async function pageContracts(db: ServerDb, where: SQL | undefined, page: { pageNum: number; pageSize: number }) {
  const rows = await selectContractRows(db)
    .where(where)
    .orderBy(desc(contracts.updateTime), desc(contracts.id))
    .limit(page.pageSize)
    .offset((page.pageNum - 1) * page.pageSize);
  const [total] = await db.select({ count: count() }).from(contracts).where(where);
  return { list: rows.map(toContract), count: total?.count ?? 0 };
}

export async function contractStatistics(db: ServerDb, viewer: Viewer): Promise<ContractStatistics> {
  const groups = await db
    .select({ status: contracts.status, count: count() })
    .from(contracts)
    .where(visibleTo(viewer))
    .groupBy(contracts.status);
  const statistics: ContractStatistics = { total: 0, draft: 0, underApproval: 0, approvalRejected: 0, approved: 0, archived: 0 };
  for (const group of groups) {
    statistics.total += group.count;
    if (group.status !== null) statistics[contractStatusStatisticsKey[group.status]] += group.count;
  }
  return statistics;
}
