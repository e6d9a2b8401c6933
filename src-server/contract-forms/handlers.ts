import type { contractFormsEndpoints } from '../../src-shared/api/contract-forms';
import type { SessionUser } from '../auth/service';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import type { WriteRequest } from '../http/write-safety';
import { alterContract, contractDetail, createContract, deleteContract, listAlterations, stepContract, updateContract } from './contracts';
import { contractsForRelated, dynamicSelect, listFields, offlineArchiveSettings } from './form-support';
import type { ApprovalAction } from './lifecycle';
import { createTemplate, deleteTemplate, listTemplates, stepTemplate, templateDetail, updateTemplate } from './templates';

interface WriteContext {
  user: SessionUser;
  headers: WriteRequest['headers'];
  params: unknown;
  query: unknown;
  body: unknown;
}

/** What the write-safety layer keys a request by (src-server/http/write-safety.ts). */
function writeRequest(endpoint: keyof typeof contractFormsEndpoints, { user, headers, params, query, body }: WriteContext): WriteRequest {
  return { userId: user.id, headers, endpoint, params, query, body };
}

export function contractFormsHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof contractFormsEndpoints> {
  const contractStep = (endpoint: 'submitContract' | 'approveContract' | 'rejectContract', action: ApprovalAction) =>
    (context: WriteContext & { params: { id: string }; body: { comment?: string | undefined } }) =>
      stepContract(db, context.user, writeRequest(endpoint, context), context.params.id, action, context.body.comment ? { comment: context.body.comment } : {}, now());
  const templateStep = (endpoint: 'submitTemplate' | 'approveTemplate' | 'rejectTemplate', action: ApprovalAction) =>
    (context: WriteContext & { params: { id: string }; body: { comment?: string | undefined } }) =>
      stepTemplate(db, context.user, writeRequest(endpoint, context), context.params.id, action, context.body.comment, now());
  return {
    createContract: (context) => createContract(db, context.user, writeRequest('createContract', context), context.body, now()),
    contractDetail: ({ user, params }) => contractDetail(db, user, params.id),
    updateContract: (context) => updateContract(db, context.user, writeRequest('updateContract', context), context.params.id, context.body, now()),
    deleteContract: (context) => deleteContract(db, context.user, writeRequest('deleteContract', context), context.params.id),
    submitContract: contractStep('submitContract', 'submit'),
    approveContract: contractStep('approveContract', 'approve'),
    rejectContract: contractStep('rejectContract', 'reject'),
    archiveContract: (context) =>
      stepContract(db, context.user, writeRequest('archiveContract', context), context.params.id, 'archive', { fileId: context.body.fileId }, now()),
    alterContract: (context) => alterContract(db, context.user, writeRequest('alterContract', context), context.params.id, context.body, now()),
    contractAlterations: ({ user, params }) => listAlterations(db, user, params.id),
    templateList: ({ user, query }) => listTemplates(db, user, query),
    createTemplate: (context) => createTemplate(db, context.user, writeRequest('createTemplate', context), context.body, now()),
    templateDetail: ({ user, params }) => templateDetail(db, user, params.id),
    updateTemplate: (context) => updateTemplate(db, context.user, writeRequest('updateTemplate', context), context.params.id, context.body, now()),
    deleteTemplate: (context) => deleteTemplate(db, context.user, writeRequest('deleteTemplate', context), context.params.id),
    submitTemplate: templateStep('submitTemplate', 'submit'),
    approveTemplate: templateStep('approveTemplate', 'approve'),
    rejectTemplate: templateStep('rejectTemplate', 'reject'),
    fieldList: ({ user, query }) => listFields(db, user, query.q),
    dynamicSelect: ({ user, params, query }) => dynamicSelect(db, user, params.fieldId, query),
    offlineArchiveSettings: ({ user }) => offlineArchiveSettings(db, user),
    contractsForRelated: ({ user, query }) => contractsForRelated(db, user, query.q),
  };
}
