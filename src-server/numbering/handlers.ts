import type { z } from 'zod';
import type { checkDuplicateQuerySchema, numberingEndpoints, saveAbbrSettingSchema, saveNumberingRulesSchema } from '../../src-shared/api/numbering';
import type { NumberingKind } from '../../src-shared/domain/numbering';
import type { ServerDb } from '../db/database';
import type { FeatureHandlers } from '../http/routes';
import { ifMatchVersion, type Headers } from '../http/write-safety';
import type { SessionUser } from '../auth/service';
import {
  autoPreview,
  checkDuplicate,
  deleteAbbrSetting,
  designateDepartment,
  listAbbrSettings,
  listContractTypes,
  listEditors,
  listRules,
  previewRules,
  saveAbbrSetting,
  saveEditors,
  saveRules,
} from './service';

/** What a handler shared by both kinds reads of its request. */
type By<T = object> = { user: SessionUser } & T;

export function numberingHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof numberingEndpoints> {
  /** The same calls for contract_number/… and template_number/… (their schemas are the same). */
  const kind = (k: NumberingKind) => ({
    rules: ({ user }: By) => listRules(db, user, k),
    saveRules: ({ user, body }: By<{ body: z.output<typeof saveNumberingRulesSchema> }>) => saveRules(db, user, k, body),
    abbrSettings: ({ user }: By) => listAbbrSettings(db, user, k),
    saveAbbrSetting: ({ user, body }: By<{ body: z.output<typeof saveAbbrSettingSchema> }>) => saveAbbrSetting(db, user, k, body),
    deleteAbbrSetting: ({ user, query, headers }: By<{ query: { id: string }; headers: Headers }>) => deleteAbbrSetting(db, user, k, query.id, ifMatchVersion(headers)),
    preview: ({ user }: By) => previewRules(db, user, k, now()),
    checkDuplicate: ({ user, query }: By<{ query: z.output<typeof checkDuplicateQuerySchema> }>) => checkDuplicate(db, user, k, query),
  });
  const contract = kind('contract');
  const template = kind('template');
  return {
    contractTypeList: ({ user }) => listContractTypes(db, user),
    designateDepartment: ({ user, body }) => designateDepartment(db, user, body),
    contractNumberRules: contract.rules,
    saveContractNumberRules: contract.saveRules,
    contractNumberAbbrSettings: contract.abbrSettings,
    saveContractNumberAbbrSetting: contract.saveAbbrSetting,
    deleteContractNumberAbbrSetting: contract.deleteAbbrSetting,
    contractNumberRulesPreview: contract.preview,
    contractNumberCheckDuplicate: contract.checkDuplicate,
    templateNumberRules: template.rules,
    saveTemplateNumberRules: template.saveRules,
    templateNumberAbbrSettings: template.abbrSettings,
    saveTemplateNumberAbbrSetting: template.saveAbbrSetting,
    deleteTemplateNumberAbbrSetting: template.deleteAbbrSetting,
    templateNumberRulesPreview: template.preview,
    templateNumberCheckDuplicate: template.checkDuplicate,
    contractNumberAutoPreview: ({ user, query }) => autoPreview(db, user, query.contractTypeID, now()),
    contractNumberEditors: ({ user }) => listEditors(db, user),
    saveContractNumberEditors: ({ user, body }) => saveEditors(db, user, body.editors),
  };
}
