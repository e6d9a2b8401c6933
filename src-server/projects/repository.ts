import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Project, projectCreateSchema, projectUpdateSchema, projectsEndpoints } from '../../src-shared/api/projects';
import { AppFailure, reason } from '../../src-shared/errors';
import { pageContracts, visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { containsPattern } from '../db/like';
import { contracts, users } from '../db/schema';
import { isUniqueViolation, notFound, type OrgViewer } from '../http/feature-helpers';
import { checkIfMatch } from '../http/write-safety';
import { projects } from './schema';

type PageQuery = z.output<(typeof projectsEndpoints)['projectList']['query']>;

const duplicateName = () => new AppFailure('conflict', 'project name duplicated', undefined, reason('projectNameDuplicated'));

const contains = (q: string | undefined) => (q ? containsPattern(q.toLowerCase()) : undefined);

/** Contracts of `projectIds` the viewer may see, per project. */
async function visibleCounts(db: ServerDb, viewer: OrgViewer, projectIds: string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .select({ projectId: contracts.projectId, count: count() })
    .from(contracts)
    .where(and(inArray(contracts.projectId, projectIds), visibleTo(viewer)))
    .groupBy(contracts.projectId);
  return new Map(rows.map((r) => [r.projectId ?? '', r.count]));
}

/** Projects with their creator's name; callers add the organisation condition. */
function selectProjects(db: ServerDb) {
  return db.select({ project: projects, createdByName: users.displayName }).from(projects).innerJoin(users, eq(users.id, projects.createdBy));
}

interface ProjectRow {
  project: typeof projects.$inferSelect;
  createdByName: string;
}

async function toProjects(db: ServerDb, viewer: OrgViewer, rows: ProjectRow[]): Promise<Project[]> {
  const counts = await visibleCounts(db, viewer, rows.map((r) => r.project.id));
  return rows.map(({ project: { organisationId: _org, createTime, updateTime, ...project }, createdByName }) => ({
    ...project,
    createdByName,
    contractCount: counts.get(project.id) ?? 0,
    createTime: createTime.toISOString(),
    updateTime: updateTime.toISOString(),
  }));
}

export async function getProject(db: ServerDb, viewer: OrgViewer, id: string): Promise<Project> {
  const rows = await selectProjects(db).where(and(eq(projects.organisationId, viewer.organisationId), eq(projects.id, id)));
  const [project] = await toProjects(db, viewer, rows);
  if (!project) throw notFound('project');
  return project;
}

export async function listProjects(db: ServerDb, viewer: OrgViewer, query: PageQuery) {
  const pattern = contains(query.q);
  const where = and(eq(projects.organisationId, viewer.organisationId), pattern ? sql`lower(${projects.name}) like ${pattern}` : undefined);
  const rows = await selectProjects(db)
    .where(where)
    .orderBy(desc(projects.updateTime), desc(projects.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ count: count() }).from(projects).where(where);
  return { list: await toProjects(db, viewer, rows), count: total?.count ?? 0 };
}

export async function listAllProjects(db: ServerDb, viewer: OrgViewer) {
  return db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(eq(projects.organisationId, viewer.organisationId))
    .orderBy(asc(projects.name), asc(projects.id));
}

/** Locks the project for a write; only its creator or an administrator may change it. */
async function lockProject(tx: ServerDb, viewer: OrgViewer, id: string, forChange: boolean) {
  const [row] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.organisationId, viewer.organisationId), eq(projects.id, id)))
    .for('update');
  if (!row) throw notFound('project');
  if (forChange && viewer.role !== 'admin' && row.createdBy !== viewer.id) {
    throw new AppFailure('forbidden', 'only the project creator or an administrator may change the project', undefined, reason('projectNotYours'));
  }
  return row;
}

/**
 * Puts the contracts into the project. Every id must be a contract the viewer may see; otherwise
 * nothing is written and the answer is the same as for a contract that does not exist.
 */
async function addContracts(tx: ServerDb, viewer: OrgViewer, projectId: string, contractIds: string[], at: Date): Promise<number> {
  const ids = [...new Set(contractIds)];
  if (ids.length === 0) return 0;
  const found = await tx.select({ id: contracts.id }).from(contracts).where(and(inArray(contracts.id, ids), visibleTo(viewer)));
  const seen = new Set(found.map((c) => c.id));
  const unseen = ids.filter((id) => !seen.has(id));
  if (unseen.length > 0) throw notFound(`contract ${unseen.slice(0, 5).join(', ')}`);
  await tx.update(contracts).set({ projectId, updateTime: at }).where(inArray(contracts.id, ids));
  return ids.length;
}

async function touch(tx: ServerDb, id: string, version: number, at: Date) {
  await tx.update(projects).set({ updateTime: at, version: version + 1 }).where(eq(projects.id, id));
}

export async function createProject(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof projectCreateSchema>, at: Date) {
  try {
    await db.transaction(async (tx) => {
      await tx.insert(projects).values({
        id, organisationId: viewer.organisationId, name: body.name, description: body.description, createdBy: viewer.id, createTime: at, updateTime: at,
      });
      await addContracts(tx, viewer, id, body.contractIds, at);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
  return getProject(db, viewer, id);
}

export async function updateProject(db: ServerDb, viewer: OrgViewer, id: string, body: z.output<typeof projectUpdateSchema>, at: Date) {
  try {
    await db.transaction(async (tx) => {
      const row = await lockProject(tx, viewer, id, true);
      await checkIfMatch('the project', row.version, body.version, () => getProject(tx, viewer, id));
      await tx.update(projects).set({ name: body.name, description: body.description, updateTime: at, version: row.version + 1 }).where(eq(projects.id, id));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
  return getProject(db, viewer, id);
}

/** Deleting a project frees its contracts (the foreign key sets their project to null). */
export async function deleteProject(db: ServerDb, viewer: OrgViewer, id: string, version: number | undefined): Promise<{ deleted: true }> {
  await db.transaction(async (tx) => {
    const row = await lockProject(tx, viewer, id, true);
    await checkIfMatch('the project', row.version, version, () => getProject(tx, viewer, id));
    await tx.delete(projects).where(eq(projects.id, id));
  });
  return { deleted: true };
}

export async function addProjectContracts(db: ServerDb, viewer: OrgViewer, id: string, contractIds: string[], at: Date) {
  return db.transaction(async (tx) => {
    const row = await lockProject(tx, viewer, id, false);
    const added = await addContracts(tx, viewer, id, contractIds, at);
    await touch(tx, id, row.version, at);
    return { count: added };
  });
}

/** Takes the viewer's visible contracts out of the project; ids not in it are ignored. */
export async function removeProjectContracts(db: ServerDb, viewer: OrgViewer, id: string, contractIds: string[], at: Date) {
  return db.transaction(async (tx) => {
    const row = await lockProject(tx, viewer, id, false);
    const removed = await tx
      .update(contracts)
      .set({ projectId: null, updateTime: at })
      .where(and(eq(contracts.projectId, id), inArray(contracts.id, contractIds), visibleTo(viewer)))
      .returning({ id: contracts.id });
    await touch(tx, id, row.version, at);
    return { count: removed.length };
  });
}

function contractSearch(q: string | undefined) {
  const pattern = contains(q);
  return pattern ? or(sql`lower(${contracts.name}) like ${pattern}`, sql`lower(${contracts.contractNumber}) like ${pattern}`) : undefined;
}

export async function listProjectContracts(db: ServerDb, viewer: OrgViewer, id: string, query: PageQuery) {
  await getProject(db, viewer, id);
  return pageContracts(db, and(eq(contracts.projectId, id), visibleTo(viewer), contractSearch(query.q)), query);
}

type VisibleQuery = z.output<(typeof projectsEndpoints)['contractListVisible']['query']>;

export async function listVisibleContracts(db: ServerDb, viewer: OrgViewer, query: VisibleQuery) {
  const where = and(
    visibleTo(viewer),
    contractSearch(query.q),
    query.projectId ? eq(contracts.projectId, query.projectId) : undefined,
    query.withoutProject === 'true' ? sql`${contracts.projectId} is null` : undefined,
  );
  const list = await db
    .select({ id: contracts.id, name: contracts.name, contractNumber: contracts.contractNumber, projectId: contracts.projectId })
    .from(contracts)
    .where(where)
    .orderBy(desc(contracts.updateTime), desc(contracts.id))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const [total] = await db.select({ count: count() }).from(contracts).where(where);
  return { list, count: total?.count ?? 0 };
}
