import { v7 as uuidv7 } from 'uuid';
import type { projectsEndpoints } from '../../src-shared/api/projects';
import type { ServerDb } from '../db/database';
import { basedOnVersion, ifMatchVersion } from '../http/write-safety';
import type { FeatureHandlers } from '../http/routes';
import {
  addProjectContracts,
  createProject,
  deleteProject,
  getProject,
  listAllProjects,
  listProjectContracts,
  listProjects,
  listVisibleContracts,
  removeProjectContracts,
  updateProject,
} from './repository';

export function projectsHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof projectsEndpoints> {
  return {
    projectList: async ({ user, query }) => listProjects(db, user, query),
    projectCreate: async ({ user, body }) => createProject(db, user, uuidv7(), body, now()),
    projectListAll: async ({ user }) => ({ list: await listAllProjects(db, user) }),
    projectGet: async ({ user, params }) => getProject(db, user, params.id),
    projectUpdate: async ({ user, params, body, headers }) =>
      updateProject(db, user, params.id, { ...body, version: basedOnVersion(body.version, headers) }, now()),
    projectDelete: async ({ user, params, headers }) => deleteProject(db, user, params.id, ifMatchVersion(headers)),
    projectContracts: async ({ user, params, query }) => listProjectContracts(db, user, params.id, query),
    projectAddContracts: async ({ user, params, body }) => addProjectContracts(db, user, params.id, body.contractIds, now()),
    projectRemoveContracts: async ({ user, params, query }) => removeProjectContracts(db, user, params.id, query.contractIds, now()),
    contractListVisible: async ({ user, query }) => listVisibleContracts(db, user, query),
  };
}
