import { and, asc, count, desc, eq, inArray, isNotNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { templateDetailSchema, type TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { previewRuleSchema, type PreviewRule } from '../../../src-shared/domain/numbering';
import {
  catalogueContractTypeSchema,
  type CatalogueContractType,
  type CatalogueCounterparty,
  type ContractRefusal,
  type DraftingCatalogue,
  type NumberNotice,
  type ReplicaContractDetail,
} from '../../../src-shared/ipc/drafting';
import { appErrorSchema } from '../../../src-shared/errors';
import { mutations, rowKey } from '../../../src-shared/sync/mutations';
import { toReplicaContract } from './contract-rows';
import type { OpenReplica, ReplicaDb } from '../data/replica';
import { cachedReadStore } from '../data/cached-reads';
import {
  cachedReads,
  catalogueCounterparties,
  catalogueTemplates,
  contracts,
  contractsLocal,
  draftingCatalogue,
  numberNotices,
  outbox,
  outboxTouches,
  provisionalNumbers,
} from '../data/schema';

// What contract drafting keeps in the replica (issue 6): the signed-in user's catalogue
// (templates with their fields and clauses, contract types, the numbering preview, the
// number-editor flag, counterparties), the provisional numbers handed out offline, and the
// notices of those the server replaced. Every catalogue row carries its user's id: a replica
// is already per user, and this keeps a catalogue from ever answering for someone else.

/** Everything a refresh fetched, stored in one transaction. */
export interface FetchedCatalogue {
  refreshedAt: string;
  templates: TemplateDetail[];
  contractTypes: CatalogueContractType[];
  numberingPreview: PreviewRule[];
  isNumberEditor: boolean;
  counterparties: CatalogueCounterparty[];
}

export interface PartySearch {
  keyword: string;
  partyType?: 1 | 2 | undefined;
  pageNum: number;
  pageSize: number;
}

/** LIKE pattern that matches `text` literally anywhere (% and _ in user input are data). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const emptyCatalogue: DraftingCatalogue = { refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false };
const rows = 400;

/** What an offline draft shows before the server names it: its template's name, type and fields (its terms), its type's name. */
export interface CatalogueNames {
  template(id: string): Pick<TemplateDetail, 'name' | 'contractTypeId' | 'fields'> | null;
  contractTypeName(id: string): string | null;
}

/**
 * Where a contract's template is kept when the catalogue does not offer it (cached_reads, by
 * template id). A contract keeps the form it was drafted with: the catalogue holds only the
 * templates one may draft from now, and is empty until its first fetch, so a contract whose
 * template is not (or no longer) among them needs its own copy. Approved templates never change
 * on the server (the status machine), so one copy per template serves every contract of it; no
 * replicated template table and no migration are needed for that.
 */
export const contractTemplateKind = 'contractTemplate';

/** The template a contract's form needs: the catalogue's, else the copy kept for contracts; null when this device has neither. */
export function keptTemplate(db: Pick<ReplicaDb, 'select'>, userId: string, id: string): TemplateDetail | null {
  const row =
    db.select({ detail: catalogueTemplates.detail }).from(catalogueTemplates).where(and(eq(catalogueTemplates.userId, userId), eq(catalogueTemplates.id, id))).get() ??
    db
      .select({ detail: cachedReads.value })
      .from(cachedReads)
      .where(and(eq(cachedReads.userId, userId), eq(cachedReads.kind, contractTemplateKind), eq(cachedReads.key, id)))
      .get();
  const parsed = row ? templateDetailSchema.safeParse(JSON.parse(row.detail)) : null;
  return parsed?.success ? parsed.data : null;
}

export function catalogueNames(db: Pick<ReplicaDb, 'select'>, userId: string): CatalogueNames {
  let types: Map<string, string> | undefined;
  return {
    template(id) {
      const template = keptTemplate(db, userId, id);
      return template && { name: template.name, contractTypeId: template.contractTypeId, fields: template.fields };
    },
    contractTypeName(id) {
      if (!types) {
        const row = db.select({ contractTypes: draftingCatalogue.contractTypes }).from(draftingCatalogue).where(eq(draftingCatalogue.userId, userId)).get();
        const list = z.array(catalogueContractTypeSchema).catch([]).parse(row ? JSON.parse(row.contractTypes) : []);
        types = new Map(list.map((type) => [type.id, type.name]));
      }
      return types.get(id) ?? null;
    },
  };
}

/** The latest refused draft or form save of the contract (its later edits are shown on top of it); null when none. */
function refusalOf(db: ReplicaDb, id: string): ContractRefusal | null {
  const rows = db
    .select({ id: outbox.id, name: outbox.name, args: outbox.args, error: outbox.error })
    .from(outboxTouches)
    .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
    .where(and(eq(outboxTouches.rowKey, rowKey('contract', id)), eq(outbox.state, 'rejected'), inArray(outbox.name, ['contract.create', 'contract.update'])))
    .orderBy(desc(outbox.seq))
    .all();
  for (const row of rows) {
    const error = appErrorSchema.nullable().catch(null).parse(JSON.parse(row.error ?? 'null'));
    if (row.name === 'contract.create') {
      const args = mutations['contract.create'].args.safeParse(JSON.parse(row.args));
      if (args.success) return { id: row.id, kind: 'create', error, name: args.data.name, contractNumber: args.data.contractNumber, formValues: args.data.formValues };
    } else {
      const args = mutations['contract.update'].args.safeParse(JSON.parse(row.args));
      if (!args.success) continue;
      const { name, contractNumber, formValues } = args.data.patch;
      return { id: row.id, kind: 'update', error, ...(name !== undefined && { name }), ...(contractNumber !== undefined && { contractNumber }), formValues: formValues ?? {} };
    }
  }
  return null;
}

export function draftingStore({ db }: OpenReplica, userId: string) {
  const byUser = {
    templates: eq(catalogueTemplates.userId, userId),
    counterparties: eq(catalogueCounterparties.userId, userId),
  };

  function storedTemplates(): TemplateDetail[] {
    return db
      .select({ detail: catalogueTemplates.detail })
      .from(catalogueTemplates)
      .where(byUser.templates)
      .orderBy(asc(catalogueTemplates.name), asc(catalogueTemplates.id))
      .all()
      .flatMap((row) => {
        const parsed = templateDetailSchema.safeParse(JSON.parse(row.detail));
        return parsed.success ? [parsed.data] : [];
      });
  }

  return {
    /** When the catalogue was last fetched (null: never), without reading its templates. */
    refreshedAt(): string | null {
      return db.select({ refreshedAt: draftingCatalogue.refreshedAt }).from(draftingCatalogue).where(eq(draftingCatalogue.userId, userId)).get()?.refreshedAt ?? null;
    },

    catalogue(): DraftingCatalogue {
      const row = db.select().from(draftingCatalogue).where(eq(draftingCatalogue.userId, userId)).get();
      if (!row) return emptyCatalogue;
      return {
        refreshedAt: row.refreshedAt,
        templates: storedTemplates().map(({ id, name, templateNumber, contractTypeId }) => ({ id, name, templateNumber, contractTypeId })),
        contractTypes: z.array(catalogueContractTypeSchema).catch([]).parse(JSON.parse(row.contractTypes)),
        numberingPreview: z.array(previewRuleSchema).catch([]).parse(JSON.parse(row.numberingPreview)),
        isNumberEditor: row.isNumberEditor,
      };
    },

    /** A template of the catalogue, or the copy kept for this device's contracts; null when neither was fetched. */
    template: (id: string): TemplateDetail | null => keptTemplate(db, userId, id),

    /** Keeps a contract's template that the catalogue does not offer (see contractTemplateKind). */
    keepContractTemplate(template: TemplateDetail, fetchedAt: string): void {
      cachedReadStore(db, userId).write(contractTemplateKind, template.id, template, fetchedAt);
    },

    /** The templates this device's contracts were drafted with that neither the catalogue nor the kept copies hold. */
    missingContractTemplates(): string[] {
      const held = (table: typeof contracts | typeof contractsLocal) =>
        db
          .selectDistinct({ id: table.templateId })
          .from(table)
          .where(
            and(
              isNotNull(table.templateId),
              notExists(db.select({ id: catalogueTemplates.id }).from(catalogueTemplates).where(and(byUser.templates, eq(catalogueTemplates.id, table.templateId)))),
              notExists(
                db
                  .select({ key: cachedReads.key })
                  .from(cachedReads)
                  .where(and(eq(cachedReads.userId, userId), eq(cachedReads.kind, contractTemplateKind), eq(cachedReads.key, table.templateId))),
              ),
            ),
          )
          .all()
          .flatMap((row) => (row.id === null ? [] : [row.id]));
      return [...new Set([...held(contracts), ...held(contractsLocal)])];
    },

    /** Replaces the user's whole catalogue: what the server no longer offers goes. */
    save(fetched: FetchedCatalogue): void {
      db.transaction((tx) => {
        tx.delete(catalogueTemplates).where(byUser.templates).run();
        tx.delete(catalogueCounterparties).where(byUser.counterparties).run();
        for (let i = 0; i < fetched.templates.length; i += rows) {
          const chunk = fetched.templates.slice(i, i + rows);
          tx.insert(catalogueTemplates).values(chunk.map((t) => ({ userId, id: t.id, name: t.name, detail: JSON.stringify(t) }))).run();
        }
        for (let i = 0; i < fetched.counterparties.length; i += rows) {
          const chunk = fetched.counterparties.slice(i, i + rows);
          tx.insert(catalogueCounterparties).values(chunk.map((p) => ({ userId, ...p }))).run();
        }
        const row = {
          refreshedAt: fetched.refreshedAt,
          contractTypes: JSON.stringify(fetched.contractTypes),
          numberingPreview: JSON.stringify(fetched.numberingPreview),
          isNumberEditor: fetched.isNumberEditor,
        };
        tx.insert(draftingCatalogue).values({ userId, ...row }).onConflictDoUpdate({ target: draftingCatalogue.userId, set: row }).run();
      });
    },

    /** Counterparties read on the counterparty screens join the kept ones (the pickers find them offline too). */
    keepParties(parties: readonly CatalogueCounterparty[]): void {
      for (const party of parties) {
        const { id, ...columns } = party;
        db.insert(catalogueCounterparties).values({ userId, id, ...columns }).onConflictDoUpdate({ target: [catalogueCounterparties.userId, catalogueCounterparties.id], set: columns }).run();
      }
    },

    /** One page of the kept counterparties matching the keyword (name or credit code), by name. */
    searchParties(query: PartySearch): { list: CatalogueCounterparty[]; count: number } {
      const conditions: SQL[] = [byUser.counterparties];
      if (query.partyType !== undefined) conditions.push(eq(catalogueCounterparties.partyType, query.partyType));
      if (query.keyword !== '') {
        const pattern = containsPattern(query.keyword);
        conditions.push(or(sql`${catalogueCounterparties.name} like ${pattern} escape '\\'`, sql`${catalogueCounterparties.creditCode} like ${pattern} escape '\\'`)!);
      }
      const where = and(...conditions);
      const list = db
        .select({ id: catalogueCounterparties.id, name: catalogueCounterparties.name, partyType: catalogueCounterparties.partyType, creditCode: catalogueCounterparties.creditCode })
        .from(catalogueCounterparties)
        .where(where)
        .orderBy(asc(catalogueCounterparties.name), asc(catalogueCounterparties.id))
        .limit(query.pageSize)
        .offset((query.pageNum - 1) * query.pageSize)
        .all()
        .map((row) => ({ ...row, partyType: row.partyType as 1 | 2 }));
      return { list, count: db.select({ n: count() }).from(catalogueCounterparties).where(where).get()?.n ?? 0 };
    },

    /**
     * Reserves the first of `candidates` (0, 1, 2…) that no contract here carries and that was
     * never handed out before; call inside the transaction that enqueues the draft.
     */
    reserveProvisionalNumber(contractId: string, candidate: (step: number) => string, at: string): string {
      for (let step = 0; ; step += 1) {
        const number = candidate(step);
        const used =
          db.select({ n: provisionalNumbers.number }).from(provisionalNumbers).where(eq(provisionalNumbers.number, number)).get() ??
          db.select({ id: contracts.id }).from(contracts).where(eq(contracts.contractNumber, number)).get() ??
          db.select({ id: contractsLocal.id }).from(contractsLocal).where(eq(contractsLocal.contractNumber, number)).get();
        if (!used) {
          db.insert(provisionalNumbers).values({ number, contractId, createdAt: at }).run();
          return number;
        }
      }
    },

    numberNotices(): NumberNotice[] {
      return db.select().from(numberNotices).orderBy(desc(numberNotices.at), asc(numberNotices.contractId)).all();
    },

    dismissNumberNotice(contractId: string): void {
      db.delete(numberNotices).where(eq(numberNotices.contractId, contractId)).run();
    },

    /** A contract as the detail screen shows it: the local row when edits are live, else the base row. */
    contractDetail(id: string): ReplicaContractDetail | null {
      const row = db.select().from(contractsLocal).where(eq(contractsLocal.id, id)).get() ?? db.select().from(contracts).where(eq(contracts.id, id)).get();
      if (!row) return null;
      const contract = toReplicaContract(row);
      const pending = db
        .select({ seq: outbox.seq })
        .from(outboxTouches)
        .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
        .where(and(eq(outboxTouches.rowKey, rowKey('contract', id)), inArray(outbox.state, ['pending'])))
        .limit(1)
        .get();
      // Taken here and not yet back from the server as an archived contract (issue 30).
      const archiving = db
        .select({ seq: outbox.seq })
        .from(outboxTouches)
        .innerJoin(outbox, eq(outbox.seq, outboxTouches.seq))
        .where(and(eq(outboxTouches.rowKey, rowKey('contract', id)), eq(outbox.name, 'contract.archive'), inArray(outbox.state, ['pending', 'applied'])))
        .limit(1)
        .get();
      return {
        id: contract.id,
        name: contract.name,
        contractNumber: contract.contractNumber,
        contractNumberAuto: contract.contractNumberAuto,
        status: contract.status,
        contractTypeId: contract.contractTypeId,
        templateId: contract.templateId,
        formValues: contract.formValues,
        responsibleUserId: contract.responsibleUserId,
        departmentId: contract.departmentId,
        counterpartName: contract.counterpartName,
        amount: contract.amount,
        signDate: contract.signDate,
        responsibleUserName: contract.responsibleUserName,
        departmentName: contract.departmentName,
        templateName: contract.templateName,
        // The replica does not hold the archived file; the detail's archive link needs the server.
        archiveFileId: null,
        createTime: contract.createTime,
        updateTime: contract.updateTime,
        version: contract.version,
        numberProvisional: contract.numberProvisional,
        pending: pending !== undefined,
        refusal: refusalOf(db, id),
        archivePending: archiving !== undefined,
      };
    },
  };
}
export type DraftingStore = ReturnType<typeof draftingStore>;
