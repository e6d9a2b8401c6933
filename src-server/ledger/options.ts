import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { CaseTypeNode } from '../../src-shared/domain/ledger';
import { ContractStatus } from '../../src-shared/domain/enums';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contracts, templates } from '../db/schema';
import { caseTypes, caseTypeTemplates, workflows } from './schema';

// The ledger's smaller reads: the archived count, the case-type tree and the filter options.

export async function archivedCount(db: ServerDb, viewer: SessionUser): Promise<{ count: number }> {
  const [row] = await db.select({ count: count() }).from(contracts).where(and(visibleTo(viewer), eq(contracts.status, ContractStatus.Archived)));
  return { count: row?.count ?? 0 };
}

/** The organisation's case types as a tree, each node with its templates; disabled nodes (state 2) included. */
export async function caseTypeTree(db: ServerDb, viewer: SessionUser): Promise<CaseTypeNode[]> {
  const { organisationId } = viewer;
  const nodes = await db
    .select({ id: caseTypes.id, parentId: caseTypes.parentId, name: caseTypes.name, state: caseTypes.state })
    .from(caseTypes)
    .where(eq(caseTypes.organisationId, organisationId))
    .orderBy(asc(caseTypes.sortOrder), asc(caseTypes.id));
  const links = await db
    .select({ caseTypeId: caseTypeTemplates.caseTypeId, id: templates.id, name: templates.name })
    .from(caseTypeTemplates)
    .innerJoin(caseTypes, eq(caseTypes.id, caseTypeTemplates.caseTypeId))
    .innerJoin(templates, eq(templates.id, caseTypeTemplates.templateId))
    .where(eq(caseTypes.organisationId, organisationId))
    .orderBy(asc(templates.name), asc(templates.id));
  const byId = new Map<string, CaseTypeNode>(nodes.map((node) => [node.id, { id: node.id, name: node.name, state: node.state, children: [], templateList: [] }]));
  for (const link of links) byId.get(link.caseTypeId)?.templateList.push({ id: link.id, name: link.name });
  const roots: CaseTypeNode[] = [];
  for (const node of nodes) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    (parent ? parent.children : roots).push(byId.get(node.id)!);
  }
  return roots;
}

const optionLimit = 50;

/** Options of a filter by name (id and name), within the viewer's organisation. */
async function nameOptions(db: ServerDb, table: typeof workflows | typeof templates, viewer: SessionUser, q: string | undefined) {
  const { organisationId } = viewer;
  return db
    .select({ id: table.id, name: table.name })
    .from(table as typeof workflows)
    .where(and(eq(table.organisationId, organisationId), q ? ilike(table.name, containsPattern(q)) : undefined))
    .orderBy(asc(table.name), asc(table.id))
    .limit(optionLimit);
}

export const workflowOptions = (db: ServerDb, viewer: SessionUser, q: string | undefined) => nameOptions(db, workflows, viewer, q);
export const templateOptions = (db: ServerDb, viewer: SessionUser, q: string | undefined) => nameOptions(db, templates, viewer, q);
