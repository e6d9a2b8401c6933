import type { ledgerEndpoints } from '../../src-shared/api/ledger';
import { organisationDay } from '../../src-shared/rules/performance';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import { v7 as uuidv7 } from 'uuid';
import { createCaseType, updateCaseType } from './case-types';
import { archivedCount, caseTypeTree, templateOptions, workflowOptions } from './options';
import { createScene, listScenes, saveScenes, sceneTitles } from './scenes';
import { searchLedger } from './search';
import { transferContracts } from './transfer';

export function ledgerHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof ledgerEndpoints> {
  return {
    ledgerScenes: ({ user }) => listScenes(db, user),
    ledgerSceneCreate: ({ user, body }) => createScene(db, user, body),
    ledgerScenesSave: ({ user, body }) => saveScenes(db, user, body, now()),
    ledgerTitles: ({ user, query }) => sceneTitles(db, user, query.configId),
    ledgerSearch: ({ user, body }) => searchLedger(db, user, body, organisationDay(now())),
    contractTransfer: ({ user, body }) => transferContracts(db, user, body, now()),
    contractArchived: ({ user }) => archivedCount(db, user),
    caseTypeTree: ({ user }) => caseTypeTree(db, user),
    caseTypeCreate: ({ user, body }) => createCaseType(db, user, uuidv7(), body, now()),
    caseTypeUpdate: ({ user, params, body }) => updateCaseType(db, user, params.id, body, now()),
    workflowFilterOptions: ({ user, query }) => workflowOptions(db, user, query.q),
    templateFilterOptions: ({ user, query }) => templateOptions(db, user, query.q),
  };
}
