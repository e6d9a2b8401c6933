import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { templateDetailSchema, type TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { previewRuleSchema, type PreviewRule } from '../../../src-shared/domain/numbering';
import {
  catalogueContractTypeSchema,
  type CatalogueContractType,
  type CatalogueCounterparty,
  type DraftingCatalogue,
  type NumberNotice,
  type ReplicaContractDetail,
} from '../../../src-shared/ipc/drafting';
import { rowKey } from '../../../src-shared/sync/mutations';
import { toReplicaContract } from './contract-rows';
import type { OpenReplica, ReplicaDb } from '../data/replica';
import {
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

/** A template of the user's catalogue; null when it was never fetched. */
export function catalogueTemplate(db: Pick<ReplicaDb, 'select'>, userId: string, id: string): TemplateDetail | null {
  const row = db.select({ detail: catalogueTemplates.detail }).from(catalogueTemplates).where(and(eq(catalogueTemplates.userId, userId), eq(catalogueTemplates.id, id))).get();
  const parsed = row ? templateDetailSchema.safeParse(JSON.parse(row.detail)) : null;
  return parsed?.success ? parsed.data : null;
}

export function catalogueNames(db: Pick<ReplicaDb, 'select'>, userId: string): CatalogueNames {
  let types: Map<string, string> | undefined;
  return {
    template(id) {
      const template = catalogueTemplate(db, userId, id);
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

    /** A template of the catalogue; null when it was never fetched. */
    template: (id: string): TemplateDetail | null => catalogueTemplate(db, userId, id),

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
      };
    },
  };
}
export type DraftingStore = ReturnType<typeof draftingStore>;
