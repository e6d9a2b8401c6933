import { describe, expect, it } from 'vitest';
import { AppFailure, appErrorSchema, reason } from '../../src-shared/errors';
import { reasonsEn, reasonsZh } from '../../src-shared/i18n/catalogs/reasons';
import { transitionRefusal, approverRefusal } from '../../src-shared/rules/contract-status';
import { ContractStatus } from '../../src-shared/domain/enums';

// The refusals' reasons (src-shared/i18n/catalogs/reasons.ts): both languages name the same values
// in each text, and a refusal carries its reason across the wire's schema.

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('refusal reasons', () => {
  it('names the same values in English and Chinese, each word map of a value in both', () => {
    for (const [key, text] of Object.entries(reasonsEn.text)) {
      expect(placeholders(reasonsZh.text[key as keyof typeof reasonsZh.text]), key).toEqual(placeholders(text));
      expect(reasonsZh.text[key as keyof typeof reasonsZh.text], key).not.toBe(text);
    }
    for (const [name, words] of Object.entries(reasonsEn.words)) expect(Object.keys(reasonsZh.words[name as keyof typeof reasonsZh.words]), name).toEqual(Object.keys(words));
  });

  it('keeps a refusal\'s reason through the error schema, and leaves errors without one as they were', () => {
    const refusal = transitionRefusal('contract', 'submit', ContractStatus.UnderApproval)!;
    expect(refusal.error.reason).toEqual({ key: 'transitionRefused', params: { subject: 'contract', status: ContractStatus.UnderApproval, stepDone: 'submit', allowed: [ContractStatus.Drafting, ContractStatus.ApprovalRejected] } });
    expect(appErrorSchema.parse(JSON.parse(JSON.stringify(refusal.error)))).toEqual(refusal.error);
    expect(approverRefusal('staff', 'approve')!.error.reason).toEqual({ key: 'notApprover', params: { step: 'approve' } });
    expect(new AppFailure('conflict', 'plain').error).toEqual({ code: 'conflict', message: 'plain' });
    expect(reason('contractMissing')).toEqual({ key: 'contractMissing' });
  });

  it('refuses a malformed reason on the wire', () => {
    expect(appErrorSchema.safeParse({ code: 'conflict', message: 'm', reason: { key: '' } }).success).toBe(false);
    expect(appErrorSchema.safeParse({ code: 'conflict', message: 'm', reason: { key: 'x', params: { a: { nested: true } } } }).success).toBe(false);
  });
});
