import { describe, expect, it } from 'vitest';
import { standsAsideFor } from '../../src-main/core/data/deferred-indexes';

// A first sync drops only the triggers that do nothing while its key is set: a trigger that could
// still act (an OR beside the key's term, the term inside a group, no WHEN) is kept.

const key = 'task_upkeep_deferred';
const absent = `NOT EXISTS (SELECT 1 FROM \`replica_meta\` WHERE \`key\` = '${key}')`;
const trigger = (when: string) => `CREATE TRIGGER t AFTER INSERT ON performance_tasks ${when} BEGIN\n  UPDATE x SET y = 1;\nEND`;

describe('the triggers a first sync sets aside', () => {
  it('are those whose WHEN is a conjunction with "the key is not there"', () => {
    expect(standsAsideFor(trigger(`WHEN ${absent}`), key)).toBe(true);
    expect(standsAsideFor(trigger(`WHEN new.\`expiration_time\` IS NOT NULL AND ${absent}`), key)).toBe(true);
    expect(standsAsideFor(trigger(`WHEN (old.a IS NOT new.a OR old.b IS NOT new.b) AND ${absent}`), key)).toBe(true);
  });

  it('keep a trigger that could act while the key is set', () => {
    expect(standsAsideFor(trigger(`WHEN new.a = 1 OR ${absent}`), key)).toBe(false);
    expect(standsAsideFor(trigger(`WHEN (new.a = 1 OR ${absent})`), key)).toBe(false);
    expect(standsAsideFor(trigger(''), key)).toBe(false);
    expect(standsAsideFor(trigger(`WHEN ${absent.replace(key, 'search_index_deferred')}`), key)).toBe(false);
    expect(standsAsideFor(trigger(`WHEN EXISTS (SELECT 1 FROM \`replica_meta\` WHERE \`key\` = '${key}')`), key)).toBe(false);
  });
});
