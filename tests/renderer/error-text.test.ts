import { describe, expect, it } from 'vitest';
import { failureText } from '../../src-renderer/features/manage/issues';
import { errorText, errorTextWithDetail } from '../../src-renderer/i18n/errorText';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';

// An error in words: a refusal's reason where it carries one this app knows (in the UI's
// language), else the code's text and the error's own message.

initI18n('en');

describe('error text', () => {
  it('says why a manage screen refused a write, not that someone else changed the record', () => {
    const duplicate = { code: 'conflict' as const, message: 'project name duplicated', reason: { key: 'projectNameDuplicated' } };
    const number = { code: 'conflict' as const, message: 'this number duplicates the following template numbers: MB-7', reason: { key: 'numberDuplicated', params: { kind: 'template', number: 'MB-7' } } };
    const en = i18n.getFixedT('en');
    const zh = i18n.getFixedT('zh-CN');
    expect(failureText(en, duplicate)).toBe('A project with this name already exists.');
    expect(failureText(zh, duplicate)).toBe('项目名称重复。');
    expect(errorText(zh, number)).toBe('此编号与以下模板编号重复：MB-7。');
    expect(errorTextWithDetail(en, number)).toBe('This number duplicates the following template numbers: MB-7.');
  });

  it('keeps the code and the message for an error without a reason, or with one this app does not know', () => {
    const plain = { code: 'conflict' as const, message: 'something the server said' };
    expect(errorText(i18n.getFixedT('en'), plain)).toBe('Someone else changed this record first.');
    expect(errorTextWithDetail(i18n.getFixedT('en'), plain)).toBe('Someone else changed this record first. (something the server said)');
    expect(errorTextWithDetail(i18n.getFixedT('en'), { ...plain, reason: { key: 'fromANewerServer' } })).toBe('Someone else changed this record first. (something the server said)');
  });
});
