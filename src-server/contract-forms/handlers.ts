import type { contractFormsEndpoints } from '../../src-shared/api/contract-forms';
import type { SessionUser } from '../auth/service';
import type { TemplateDocuments } from '../contract-document/template-document';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import type { Headers } from '../http/write-safety';
import { alterContract, contractDetail, createContract, deleteContract, listAlterations, stepContract, updateContract } from './contracts';
import { contractsForRelated, dynamicSelect, listFields, offlineArchiveSettings } from './form-support';
import type { ApprovalAction } from './lifecycle';
import { catalogueVersion, createTemplate, deleteTemplate, listTemplates, stepTemplate, templateDetail, updateTemplate } from './templates';

type WriteContext = { user: SessionUser; headers: Headers };

export function contractFormsHandlers(db: ServerDb, now: () => Date, documents: TemplateDocuments): FeatureHandlers<typeof contractFormsEndpoints> {
  const contractStep = (action: ApprovalAction) =>
    (context: WriteContext & { params: { id: string }; body: { comment?: string | undefined } }) =>
      stepContract(db, context.user, context.headers, context.params.id, action, context.body.comment ? { comment: context.body.comment } : {}, now());
  const templateStep = (action: ApprovalAction) =>
    (context: WriteContext & { params: { id: string }; body: { comment?: string | undefined } }) =>
      stepTemplate(db, context.user, context.headers, context.params.id, action, context.body.comment, now());
  return {
    createContract: (context) => createContract(db, context.user, context.body, now()),
    contractDetail: ({ user, params }) => contractDetail(db, user, params.id),
    updateContract: (context) => updateContract(db, context.user, context.headers, context.params.id, context.body, now()),
    deleteContract: (context) => deleteContract(db, context.user, context.headers, context.params.id),
    submitContract: contractStep('submit'),
    approveContract: contractStep('approve'),
    rejectContract: contractStep('reject'),
    archiveContract: (context) =>
      stepContract(db, context.user, context.headers, context.params.id, 'archive', { fileId: context.body.fileId }, now()),
    alterContract: (context) => alterContract(db, context.user, context.headers, context.params.id, context.body, now()),
    contractAlterations: ({ user, params }) => listAlterations(db, user, params.id),
    templateList: ({ user, query }) => listTemplates(db, user, query),
    templateCatalogueVersion: ({ user }) => catalogueVersion(db, user),
    createTemplate: (context) => createTemplate(db, documents, context.user, context.body, now()),
    templateDetail: ({ user, params }) => templateDetail(db, user, params.id),
    updateTemplate: (context) => updateTemplate(db, documents, context.user, context.headers, context.params.id, context.body, now()),
    deleteTemplate: (context) => deleteTemplate(db, context.user, context.headers, context.params.id),
    submitTemplate: templateStep('submit'),
    approveTemplate: templateStep('approve'),
    rejectTemplate: templateStep('reject'),
    fieldList: ({ user, query }) => listFields(db, user, query.q),
    dynamicSelect: ({ user, params, query }) => dynamicSelect(db, user, params.fieldId, query),
    offlineArchiveSettings: ({ user }) => offlineArchiveSettings(db, user),
    contractsForRelated: ({ user, query }) => contractsForRelated(db, user, query.q),
  };
}
