import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { migrationsFolder } from '../../src-server/db/database';
import { users } from '../../src-server/db/schema';
import { ledgerScenes } from '../../src-server/ledger/schema';
import { seedDatabase } from '../../src-server/index';
import { describeOnDatabases, queryRows } from './support';

// Server migration 0040 (issue 28): scenes keep a sort. Run over a database as it was before it
// (no sort_field, the scene trigger of 0025): the scenes made before have none and keep their
// version and feed position, and a later change of the sort is a field group of its own.

const statementsOf = (file: string) =>
  readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);

describeOnDatabases('migration 0040: the kept sort of a scene', (fixture) => {
  it('gives the scenes made before no sort, moves none of them, and versions a later sort as its own field group', async () => {
    await seedDatabase(fixture.db, { contracts: 2, seed: 40 });
    // The database before 0040: the scene trigger as 0025 made it, no sort_field.
    await fixture.db.execute(sql`drop trigger ledger_scenes_track_field_versions on ledger_scenes`);
    const before = statementsOf('0025_entity_field_versions_triggers.sql').find((s) => s.includes('CREATE TRIGGER ledger_scenes_track_field_versions'))!;
    await fixture.db.execute(sql.raw(before));
    await fixture.db.execute(sql`alter table ledger_scenes drop column sort_field`);
    const [user] = await fixture.db.select({ id: users.id }).from(users).limit(1);
    await fixture.db.execute(sql`insert into ledger_scenes (id, user_id, name, title_ids) values ('old-scene', ${user!.id}, 'made before', '["name", "expirationTime"]'::jsonb)`);
    const [old] = await queryRows<{ version: number; change_seq: string }>(fixture.db, sql`select version, change_seq from ledger_scenes where id = 'old-scene'`);

    for (const statement of statementsOf('0040_scene_sort_field.sql')) await fixture.db.execute(sql.raw(statement));

    const [migrated] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, 'old-scene'));
    expect(migrated).toMatchObject({ sortField: null, version: old!.version, changeSeq: BigInt(old!.change_seq) });
    await fixture.db
      .update(ledgerScenes)
      .set({ sortField: { id: 'expirationTime', key: -1 }, version: sql`${ledgerScenes.version} + 1` })
      .where(eq(ledgerScenes.id, 'old-scene'));
    const [sorted] = await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.id, 'old-scene'));
    expect(sorted!.sortField).toEqual({ id: 'expirationTime', key: -1 });
    expect(sorted!.fieldVersions).toEqual({ sortField: old!.version + 1 });
    expect(sorted!.changeSeq).toBeGreaterThan(migrated!.changeSeq);
  });
});
