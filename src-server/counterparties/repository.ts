import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  cooperationContractsShown,
  type ContractCreditRisk,
  type Counterparty,
  type CounterpartyInput,
  type counterpartyListQuerySchema,
  type counterpartyListRowSchema,
  type counterpartSearchItemSchema,
  type externalDetailSchema,
  type riskAlertSchema,
} from '../../src-shared/api/counterparties';
import { PartySubtype, PartyType } from '../../src-shared/domain/enums';
import { AppFailure, reason } from '../../src-shared/errors';
import type { NewParty } from '../../src-shared/form/parties';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { containsPattern, escapeLike } from '../db/like';
import { contracts, counterparties, users } from '../db/schema';
import { notFound, single, type OrgViewer } from '../http/feature-helpers';
import { checkIfMatch } from '../http/write-safety';
import { scoreResults } from '../scoring/schema';
import {
  counterpartyBanks,
  counterpartyContacts,
  counterpartyMonitoringResults,
  counterpartyRegistrations,
  counterpartyRisks,
} from './schema';

type Row = typeof counterparties.$inferSelect;
type RegistrationRow = typeof counterpartyRegistrations.$inferSelect;

const searchLimit = 50;

function sameOrganisation(viewer: OrgViewer): SQL {
  return eq(counterparties.organisationId, viewer.organisationId);
}

/** Banks, contacts and registrations of `ids`, grouped by counterparty. */
async function loadChildren(db: ServerDb, ids: string[]) {
  if (ids.length === 0) return { banks: new Map(), contacts: new Map(), registrations: new Map() };
  const [bankRows, contactRows, registrationRows] = await Promise.all([
    db.select().from(counterpartyBanks).where(inArray(counterpartyBanks.counterpartyId, ids)).orderBy(asc(counterpartyBanks.position)),
    db.select().from(counterpartyContacts).where(inArray(counterpartyContacts.counterpartyId, ids)).orderBy(asc(counterpartyContacts.position)),
    db.select().from(counterpartyRegistrations).where(inArray(counterpartyRegistrations.counterpartyId, ids)),
  ]);
  const group = <T extends { counterpartyId: string }, U>(rows: T[], map: (row: T) => U) => {
    const byId = new Map<string, U[]>();
    for (const row of rows) byId.set(row.counterpartyId, [...(byId.get(row.counterpartyId) ?? []), map(row)]);
    return byId;
  };
  return {
    banks: group(bankRows, ({ name, account, accountName }) => ({ name, account, accountName })),
    contacts: group(contactRows, ({ name, phone, email, title }) => ({ name, phone, email, title })),
    registrations: new Map(registrationRows.map(({ counterpartyId, ...fields }) => [counterpartyId, fields])),
  };
}

function toRegistration(row: Omit<RegistrationRow, 'counterpartyId'> | undefined): Counterparty['registration'] {
  return row ?? null;
}

/** Full counterparties in the order of `ids`, with their children and the updater's name. */
async function loadCounterparties(db: ServerDb, viewer: OrgViewer, ids: string[]): Promise<Counterparty[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ row: counterparties, updaterName: users.displayName })
    .from(counterparties)
    .leftJoin(users, eq(users.id, counterparties.updatedBy))
    .where(and(sameOrganisation(viewer), inArray(counterparties.id, ids)));
  const children = await loadChildren(db, ids);
  const byId = new Map(rows.map((r) => [r.row.id, r]));
  return ids.flatMap((id) => {
    const found = byId.get(id);
    if (!found) return [];
    const { row, updaterName } = found;
    return [{
      id: row.id, type: row.type, subtype: row.subtype, name: row.name, keyword: row.keyword, idNumber: row.idNumber,
      address: row.address, contactInfo: row.contactInfo, email: row.email, fax: row.fax, rating: row.rating,
      ratingRemark: row.ratingRemark, isConnectedTransaction: row.isConnectedTransaction,
      banks: children.banks.get(id) ?? [], contacts: children.contacts.get(id) ?? [],
      registration: toRegistration(children.registrations.get(id)), updaterName,
      createTime: row.createdAt.toISOString(), updateTime: row.updatedAt.toISOString(), version: row.version,
    }];
  });
}

export async function getCounterparty(db: ServerDb, viewer: OrgViewer, id: string): Promise<Counterparty> {
  return single(await loadCounterparties(db, viewer, [id]), 'counterparty');
}

/** Writes the children of a counterparty, replacing what it had. */
async function writeChildren(tx: ServerDb, id: string, input: CounterpartyInput): Promise<void> {
  await tx.delete(counterpartyBanks).where(eq(counterpartyBanks.counterpartyId, id));
  await tx.delete(counterpartyContacts).where(eq(counterpartyContacts.counterpartyId, id));
  await tx.delete(counterpartyRegistrations).where(eq(counterpartyRegistrations.counterpartyId, id));
  if (input.banks.length > 0) await tx.insert(counterpartyBanks).values(input.banks.map((bank, position) => ({ counterpartyId: id, position, ...bank })));
  if (input.contacts.length > 0) {
    await tx.insert(counterpartyContacts).values(input.contacts.map((contact, position) => ({ counterpartyId: id, position, ...contact })));
  }
  if (input.registration) await tx.insert(counterpartyRegistrations).values({ counterpartyId: id, ...input.registration });
}

function coreColumns({ banks: _b, contacts: _c, registration: _r, ...core }: CounterpartyInput) {
  return core;
}

export async function createCounterparty(db: ServerDb, viewer: OrgViewer, id: string, input: CounterpartyInput, at: Date): Promise<Counterparty> {
  await db.transaction(async (tx) => {
    await tx.insert(counterparties).values({
      id, organisationId: viewer.organisationId, ...coreColumns(input), updatedBy: viewer.id, createdAt: at, updatedAt: at,
    });
    await writeChildren(tx, id, input);
  });
  return getCounterparty(db, viewer, id);
}

/**
 * Makes a counterparty of each party typed into a contract's form ('new party'), as the contract
 * is stored: with the id the desktop gave it when it saved the contract, so the contract names it
 * and a replay or a second contract naming it makes nothing twice. Its name, type (its field's),
 * subtype, keyword and contact come from the party value. An id taken by another organisation's
 * counterparty is refused.
 */
export async function makeNewParties(tx: ServerDb, viewer: OrgViewer, parties: readonly NewParty[], at: Date): Promise<void> {
  if (parties.length === 0) return;
  const existing = await tx
    .select({ id: counterparties.id, organisationId: counterparties.organisationId })
    .from(counterparties)
    .where(inArray(counterparties.id, parties.map(({ party }) => party.id)));
  const foreign = existing.find((row) => row.organisationId !== viewer.organisationId);
  if (foreign) throw new AppFailure('conflict', `counterparty ${foreign.id} belongs to another organisation`, undefined, reason('newPartyTaken'));
  const made = new Set(existing.map((row) => row.id));
  const fresh = parties.filter(({ party }) => !made.has(party.id));
  if (fresh.length === 0) return;
  await tx.insert(counterparties).values(
    fresh.map(({ party, partyType }) => ({
      id: party.id,
      organisationId: viewer.organisationId,
      name: party.name.trim(),
      type: partyType,
      subtype: party.subtype ?? PartySubtype.Organization,
      keyword: party.keyword ?? null,
      updatedBy: viewer.id,
      createdAt: at,
      updatedAt: at,
    })),
  );
  const contacts = fresh.filter(({ party }) => party.contactsName);
  if (contacts.length > 0) {
    await tx
      .insert(counterpartyContacts)
      .values(contacts.map(({ party }) => ({ counterpartyId: party.id, position: 0, name: party.contactsName!, phone: party.contactsPhone ?? null, email: null, title: null })));
  }
}

export async function updateCounterparty(
  db: ServerDb, viewer: OrgViewer, id: string, input: CounterpartyInput & { version?: number | undefined }, at: Date,
): Promise<Counterparty> {
  const { version, ...fields } = input;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ version: counterparties.version })
      .from(counterparties)
      .where(and(sameOrganisation(viewer), eq(counterparties.id, id)))
      .for('update');
    if (!current) throw notFound('counterparty');
    await checkIfMatch('the counterparty', current.version, version, () => getCounterparty(tx, viewer, id));
    await tx
      .update(counterparties)
      .set({ ...coreColumns(fields), updatedBy: viewer.id, updatedAt: at, version: current.version + 1 })
      .where(eq(counterparties.id, id));
    await writeChildren(tx, id, fields);
  });
  return getCounterparty(db, viewer, id);
}

/** The party picker's search: name prefix matches first (index), then names or keywords containing it. */
export async function searchCounterparts(
  db: ServerDb, viewer: OrgViewer, abbr: string, type: Row['type'],
): Promise<z.infer<typeof counterpartSearchItemSchema>[]> {
  const escaped = escapeLike(abbr.toLowerCase());
  const prefix = sql`lower(${counterparties.name}) like ${`${escaped}%`}`;
  const contains = containsPattern(abbr.toLowerCase());
  const rows = await db
    .select()
    .from(counterparties)
    .where(and(
      sameOrganisation(viewer),
      eq(counterparties.type, type),
      abbr ? or(prefix, sql`lower(${counterparties.name}) like ${contains}`, sql`lower(${counterparties.keyword}) like ${contains}`) : undefined,
    ))
    .orderBy(sql`case when ${prefix} then 0 else 1 end`, sql`length(${counterparties.name})`, asc(counterparties.name))
    .limit(searchLimit);
  const ids = rows.map((r) => r.id);
  const [children, risks] = await Promise.all([loadChildren(db, ids), riskCounts(db, ids)]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    // The rating and the risk count let the picker warn when a blacklisted or risky party is chosen.
    fieldDetailMap: {
      subtype: row.subtype, keyword: row.keyword, idNumber: row.idNumber, address: row.address, contactInfo: row.contactInfo,
      email: row.email, fax: row.fax, rating: row.rating, riskCount: risks.get(row.id) ?? 0, isConnectedTransaction: row.isConnectedTransaction,
    },
    bankItemList: children.banks.get(row.id) ?? [],
    contactItemList: children.contacts.get(row.id) ?? [],
  }));
}

/** Risk counts per counterparty. */
async function riskCounts(db: ServerDb, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: counterpartyRisks.counterpartyId, count: count() })
    .from(counterpartyRisks)
    .where(inArray(counterpartyRisks.counterpartyId, ids))
    .groupBy(counterpartyRisks.counterpartyId);
  return new Map(rows.map((r) => [r.id, r.count]));
}

type ListQuery = z.output<typeof counterpartyListQuerySchema>;
type ListRow = z.infer<typeof counterpartyListRowSchema>;

/**
 * Inner or outer counterparties, newest change first. The cooperation columns count only the
 * contracts the viewer may see, so the list reveals nothing of other departments' work.
 */
export async function listCounterparties(db: ServerDb, viewer: OrgViewer, query: ListQuery): Promise<{ list: ListRow[]; count: number }> {
  const contains = query.q ? containsPattern(query.q.toLowerCase()) : undefined;
  const where = and(
    sameOrganisation(viewer),
    eq(counterparties.type, query.type),
    query.rating !== undefined ? eq(counterparties.rating, query.rating) : undefined,
    contains ? or(sql`lower(${counterparties.name}) like ${contains}`, sql`lower(${counterparties.idNumber}) like ${contains}`) : undefined,
  );
  const rows = await db
    .select({ row: counterparties, updaterName: users.displayName })
    .from(counterparties)
    .leftJoin(users, eq(users.id, counterparties.updatedBy))
    .where(where)
    .orderBy(desc(counterparties.updatedAt), desc(counterparties.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ count: count() }).from(counterparties).where(where);
  const ids = rows.map((r) => r.row.id);
  const { banks } = await loadChildren(db, ids);
  const outer = query.type === PartyType.Outer && ids.length > 0;
  const [cooperation, risks] = outer ? await Promise.all([cooperationFigures(db, viewer, ids), riskCounts(db, ids)]) : [new Map<string, Cooperation>(), new Map<string, number>()];
  return {
    count: total?.count ?? 0,
    list: rows.map(({ row, updaterName }) => {
      const firstBank = banks.get(row.id)?.[0];
      return {
        id: row.id, type: row.type, subtype: row.subtype, name: row.name, idNumber: row.idNumber, address: row.address,
        bank: firstBank?.name ?? null, account: firstBank?.account ?? null, updaterName, updateTime: row.updatedAt.toISOString(),
        rating: row.rating,
        ...(cooperation.get(row.id) ?? noCooperation),
        riskCount: risks.get(row.id) ?? 0,
      };
    }),
  };
}

type Cooperation = Pick<ListRow, 'cooperationCount' | 'totalAmount' | 'averageScore'>;
const noCooperation: Cooperation = { cooperationCount: 0, totalAmount: [], averageScore: null };

/** A score as a share of the full score, one decimal (the list's and the detail's average score). */
const scoreShare = (total: SQL | typeof scoreResults.totalScore, max: SQL | typeof scoreResults.maxTotalScore) => sql`${total} * 100.0 / ${max}`;

/**
 * The cooperation columns of each party: the contracts with it the viewer may see, their total
 * per currency unit, and the average share of the full score over those scored.
 */
async function cooperationFigures(db: ServerDb, viewer: OrgViewer, ids: string[]): Promise<Map<string, Cooperation>> {
  const visible = and(inArray(contracts.counterpartyId, ids), visibleTo(viewer));
  const [amounts, scores] = await Promise.all([
    db
      .select({ id: contracts.counterpartyId, unit: contracts.amountUnit, count: count(), sum: sql<string | null>`sum(${contracts.amount})` })
      .from(contracts)
      .where(visible)
      .groupBy(contracts.counterpartyId, contracts.amountUnit),
    db
      .select({ id: scoreResults.counterpartyId, average: sql<string>`round(avg(${scoreShare(scoreResults.totalScore, scoreResults.maxTotalScore)}), 1)` })
      .from(scoreResults)
      .innerJoin(contracts, eq(contracts.id, scoreResults.contractId))
      .where(visible)
      .groupBy(scoreResults.counterpartyId),
  ]);
  return new Map(ids.map((id) => {
    const own = amounts.filter((a) => a.id === id);
    const average = scores.find((s) => s.id === id)?.average;
    return [id, {
      cooperationCount: own.reduce((sum, a) => sum + a.count, 0),
      totalAmount: own.flatMap((a) => (a.unit !== null && a.sum !== null ? [{ amount: Number(a.sum), unit: a.unit }] : [])),
      averageScore: average !== undefined ? Number(average) : null,
    }];
  }));
}

/** The newest contracts with the party the viewer may see, each with its score. */
async function cooperationContracts(db: ServerDb, viewer: OrgViewer, id: string) {
  const rows = await db
    .select({
      id: contracts.id, name: contracts.name, contractNumber: contracts.contractNumber, amount: contracts.amount, unit: contracts.amountUnit,
      updateTime: contracts.updateTime, score: sql<string | null>`round(${scoreShare(scoreResults.totalScore, scoreResults.maxTotalScore)}, 1)`,
    })
    .from(contracts)
    .leftJoin(scoreResults, eq(scoreResults.contractId, contracts.id))
    .where(and(eq(contracts.counterpartyId, id), visibleTo(viewer)))
    .orderBy(desc(contracts.updateTime), desc(contracts.id))
    .limit(cooperationContractsShown);
  return rows.map((r) => ({
    id: r.id, name: r.name, contractNumber: r.contractNumber,
    amount: r.amount !== null && r.unit !== null ? { amount: r.amount, unit: r.unit } : null,
    score: r.score !== null ? Number(r.score) : null,
    updateTime: r.updateTime.toISOString(),
  }));
}

/**
 * The external detail. There is no credit platform to ask in this deployment: a refresh stamps
 * the time of the check so the detail dialog shows how fresh it is.
 */
export async function externalDetail(
  db: ServerDb, viewer: OrgViewer, id: string, refresh: boolean, at: Date,
): Promise<z.infer<typeof externalDetailSchema>> {
  if (refresh) {
    await db.update(counterparties).set({ detailRefreshedAt: at }).where(and(sameOrganisation(viewer), eq(counterparties.id, id)));
  }
  const party = await getCounterparty(db, viewer, id);
  const [[refreshed], risks, cooperation, contractsWith] = await Promise.all([
    db.select({ at: counterparties.detailRefreshedAt }).from(counterparties).where(eq(counterparties.id, id)),
    riskCounts(db, [id]),
    cooperationFigures(db, viewer, [id]),
    cooperationContracts(db, viewer, id),
  ]);
  return {
    ...party,
    subType: party.subtype === PartySubtype.NaturalPerson ? 'naturalPerson' : 'organization',
    riskCount: risks.get(id) ?? 0,
    refreshTime: refreshed?.at?.toISOString() ?? null,
    ...(cooperation.get(id) ?? noCooperation),
    cooperationContracts: contractsWith,
  };
}

/**
 * Risk reminders for the dashboard: outer parties with risks among the counterparties of the
 * contracts the viewer may see, most risks first; the dimension is the latest risk's.
 */
export async function riskAlerts(db: ServerDb, viewer: OrgViewer): Promise<z.infer<typeof riskAlertSchema>[]> {
  const parties = db
    .selectDistinct({ id: contracts.counterpartyId })
    .from(contracts)
    .where(and(sql`${contracts.counterpartyId} is not null`, visibleTo(viewer)));
  const rows = await db
    .select({
      id: counterparties.id,
      name: counterparties.name,
      riskCount: count(),
      dimensionName: sql<string>`(array_agg(${counterpartyRisks.dimensionName} order by ${counterpartyRisks.occurredOn} desc))[1]`,
    })
    .from(counterpartyRisks)
    .innerJoin(counterparties, eq(counterparties.id, counterpartyRisks.counterpartyId))
    .where(and(sameOrganisation(viewer), eq(counterparties.type, PartyType.Outer), inArray(counterparties.id, parties)))
    .groupBy(counterparties.id, counterparties.name)
    .orderBy(desc(count()), asc(counterparties.name))
    .limit(100);
  return rows.map((r) => ({ counterpartyID: r.id, riskInfo: { companyName: r.name, riskCount: r.riskCount, dimensionName: r.dimensionName } }));
}

/** The credit-risk preview of a contract the viewer may see: its outer party, its rating and risks. */
export async function contractCreditRisk(db: ServerDb, viewer: OrgViewer, contractId: string): Promise<ContractCreditRisk> {
  const contract = single(
    await db.select({ name: contracts.name, counterpartyId: contracts.counterpartyId }).from(contracts).where(and(eq(contracts.id, contractId), visibleTo(viewer))),
    'contract',
  );
  const party = contract.counterpartyId ? (await loadCounterparties(db, viewer, [contract.counterpartyId]))[0] : undefined;
  if (!party || party.type !== PartyType.Outer) return { contractId, contractName: contract.name, list: [] };
  const risks = await db
    .select({ id: counterpartyRisks.id, dimensionName: counterpartyRisks.dimensionName, description: counterpartyRisks.description, occurredOn: counterpartyRisks.occurredOn })
    .from(counterpartyRisks)
    .where(eq(counterpartyRisks.counterpartyId, party.id))
    .orderBy(desc(counterpartyRisks.occurredOn), asc(counterpartyRisks.id))
    .limit(200);
  const riskCount = (await riskCounts(db, [party.id])).get(party.id) ?? 0;
  return {
    contractId,
    contractName: contract.name,
    list: [{ counterpartyID: party.id, name: party.name, idNumber: party.idNumber, rating: party.rating, riskCount, risks }],
  };
}

export async function monitoringResults(db: ServerDb, viewer: OrgViewer, id: string) {
  await getCounterparty(db, viewer, id);
  const rows = await db
    .select()
    .from(counterpartyMonitoringResults)
    .where(eq(counterpartyMonitoringResults.counterpartyId, id))
    .orderBy(desc(counterpartyMonitoringResults.updateTime))
    .limit(200);
  return rows.map((r) => ({ id: r.id, dimensionName: r.dimensionName, info: r.info, updateTime: r.updateTime.toISOString() }));
}

/**
 * The page the monitoring table's 'view' opens: the credit platform's page of the party when the
 * server is configured with one (an http(s) template, opened in the system browser), otherwise
 * the renderer's external-detail screen in a new window.
 */
export async function monitoringUrl(db: ServerDb, viewer: OrgViewer, id: string, template?: string): Promise<{ url: string }> {
  const party = await getCounterparty(db, viewer, id);
  if (!template) return { url: `/manage/oppositeParty/externalDetail?${new URLSearchParams({ id, role: 'organization' }).toString()}` };
  const values: Record<string, string> = { id, name: party.name, idNumber: party.idNumber ?? '' };
  return { url: template.replace(/\{(id|name|idNumber)\}/g, (_match, key: string) => encodeURIComponent(values[key] ?? '')) };
}
