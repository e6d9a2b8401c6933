import { describe, expect, it } from 'vitest';
import { foundText, indexingText } from '../../../src-renderer/features/search/FullTextSearch';
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

  it('says how far the index being built is, and that the rest is not found yet', async () => {
    initI18n('en');
    expect(indexingText(i18n.t, { indexed: 12_500, total: 50_000 })).toBe(
      'The search index is being built: 12,500 of 50,000 contracts so far. Contracts not yet indexed are not found.',
    );
    await i18n.changeLanguage('zh-CN');
    expect(indexingText(i18n.t, { indexed: 12_500, total: 50_000 })).toBe('正在建立搜索索引：已完成 12,500 / 50,000 份合同。尚未建立索引的合同暂时搜不到。');
    // Rows may be counted while others are written: never "more of fewer".
    expect(indexingText(i18n.t, { indexed: 10, total: 8 })).toContain('10 / 10');
  });
});
