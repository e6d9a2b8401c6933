import { describe, expect, it } from 'vitest';
import { foundText } from '../../../src-renderer/features/search/FullTextSearch';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';
import { fullTextCountCap } from '../../../src-shared/ipc/archive';

// The search box's count (issue 14): exact below the core's cap, "1,000+" past it, in both languages.

describe('full-text search count', () => {
  it('shows the exact count, or the cap with a plus when more contracts match', async () => {
    initI18n('en');
    expect(foundText(i18n.t, { count: 12, more: false })).toBe('Contracts found: 12');
    expect(foundText(i18n.t, { count: fullTextCountCap, more: true })).toBe('Contracts found: 1,000+');
    await i18n.changeLanguage('zh-CN');
    expect(foundText(i18n.t, { count: 12, more: false })).toBe('找到 12 份合同');
    expect(foundText(i18n.t, { count: fullTextCountCap, more: true })).toBe('找到 1,000+ 份合同');
  });
});
