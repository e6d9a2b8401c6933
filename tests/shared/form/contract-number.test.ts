import { describe, expect, it } from 'vitest';
import {
  canEditContractNumber,
  duplicateCheckRequest,
  duplicateContractLink,
  duplicateDialog,
  showsNumberingRulePreview,
} from '../../../src-shared/form/contract-number';
import { formMessages } from '../../../src-shared/form/messages';
import { checkSpecRoute } from '../../../src-shared/routes';

describe('contract number editability', () => {
  it.each([
    ['no auto mode', { automatic: false, editors: [] }, true, false],
    ['automatic, user is a number editor', { automatic: true, editors: ['u1'] }, true, false],
    ['automatic, user is not an editor', { automatic: true, editors: ['u2'] }, false, true],
  ])('%s → editable %s, rule preview %s', (_, context, editable, preview) => {
    const full = { userId: 'u1', ...context };
    expect(canEditContractNumber(full)).toBe(editable);
    expect(showsNumberingRulePreview(full)).toBe(preview);
  });
});

describe('duplicate check', () => {
  it.each([undefined, null, '', '   '])('needs a number (%j)', (number) => {
    const request = duplicateCheckRequest(number);
    expect(!request.ok && request.message.text).toBe('Please enter the number');
  });

  it('checks the trimmed number', () => {
    expect(duplicateCheckRequest(' HT-2026-001 ')).toEqual({ ok: true, value: { contractNumber: 'HT-2026-001' } });
  });

  const hit = { contractNumber: 'HT-1', contractList: [{ id: 'c1', name: 'lease' }] };
  const empty = { contractNumber: 'HT-2', contractList: [] };
  it.each([
    ['nothing found', { contractNumber: 'HT-1' }, [], 'NoData', 'No duplicates found yet', 0],
    ['only empty lists', { checkAll: true as const }, [empty], 'NoData', 'No duplicates found yet', 0],
    ['one number duplicated', { contractNumber: 'HT-1' }, [hit], 'Single', 'This number duplicates the following contract numbers', 1],
    ['checking all', { checkAll: true as const }, [hit, empty], 'All', 'View all duplicate numbers', 1],
  ])('%s → %s dialog', (_, request, results, type, title, entries) => {
    const dialog = duplicateDialog(request, results);
    expect(dialog.type).toBe(type);
    expect(formMessages[dialog.title]).toBe(title);
    expect(formMessages[dialog.confirm]).toBe('Got it');
    expect(dialog.entries).toHaveLength(entries);
  });

  it('titles one number duplicated among templates as templates; the other titles are the same', () => {
    const hit = { contractNumber: 'MB-1', contractList: [{ id: 't1', name: 'Lease' }] };
    expect(formMessages[duplicateDialog({ contractNumber: 'MB-1' }, [hit], 'templates').title]).toBe('This number duplicates the following template numbers');
    expect(duplicateDialog({ checkAll: true }, [hit], 'templates').title).toBe(duplicateDialog({ checkAll: true }, [hit]).title);
    expect(duplicateDialog({ contractNumber: 'MB-2' }, [], 'templates').title).toBe('duplicateTitleNoData');
  });

  it("links each contract's 'view' to its detail in contract mode", () => {
    const link = duplicateContractLink('c1');
    expect(link).toBe('/standingBook/detail?contractId=c1&mode=contract');
    const [path, search] = link.split('?');
    expect(checkSpecRoute(path ?? '', search ?? '').ok).toBe(true);
  });
});
