import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { sceneMessages, type Scene } from '../../src-shared/domain/ledger';
import { ledgerScenes } from '../../src-server/ledger/schema';
import { demoUsers, seedDatabase } from '../../src-server/index';
import { callEndpoint, describeOnDatabases, failure, okData, signIn } from './support';

const demo = (username: string) => demoUsers.find((u) => u.username === username)!;

/** The PUT body for a list of scenes as read. */
const asSaved = (scenes: Scene[]) =>
  scenes.map(({ id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField, version }) => ({ id, name, isDefault, isSystem, performanceId, filterIDs, titleIDs, filter, sortField, version }));

describeOnDatabases('ledger scenes', (fixture) => {
  let app: FastifyInstance;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    await seedDatabase(fixture.db, { contracts: 20, seed: 3 });
    app = fixture.server();
    for (const username of ['alice', 'bob', 'carol']) tokens.set(username, (await signIn(app, username, demo(username).password)).token);
  });

  const scenes = async (username: string) => okData('ledgerScenes', await callEndpoint(app, 'ledgerScenes', { token: tokens.get(username)! }));
  const create = (username: string, body: unknown) => callEndpoint(app, 'ledgerSceneCreate', { token: tokens.get(username)!, body });
  const save = (username: string, body: unknown) => callEndpoint(app, 'ledgerScenesSave', { token: tokens.get(username)!, body });

  it('makes the system scenes on first read, once, with exactly one default and the name column', async () => {
    const first = await scenes('alice');
    const system = first.filter((s) => s.isSystem);
    expect(system.length).toBeGreaterThanOrEqual(2);
    expect(first.filter((s) => s.isDefault)).toHaveLength(1);
    for (const scene of first) expect(scene.titleIDs[0]).toBe('name');
    expect(first.find((s) => s.name === 'my receivables')?.isSystem).toBe(false);
    const again = await scenes('alice');
    expect(again.map((s) => s.id)).toEqual(first.map((s) => s.id));
    // Concurrent first reads of another user still make one set.
    const [a, b] = await Promise.all([scenes('carol'), scenes('carol')]);
    expect(a!.map((s) => s.id).sort()).toEqual(b!.map((s) => s.id).sort());
    expect((await fixture.db.select().from(ledgerScenes).where(eq(ledgerScenes.isSystem, true))).length).toBe(system.length * 2);
  });

  it('creates a scene with a trimmed name, the name column first, and refuses a duplicate name', async () => {
    const created = okData('ledgerSceneCreate', await create('alice', { name: '  overdue receivables  ', titleIDs: ['contractName', 'receivableAmount'], filterIDs: ['taskState'] }));
    expect(created.name).toBe('overdue receivables');
    expect(created.titleIDs).toEqual(['name', 'contractName', 'receivableAmount']);
    expect(created.titles.map((t) => t.id)).toEqual(created.titleIDs);
    expect(created.isSystem).toBe(false);
    expect(created.isDefault).toBe(false);
    const duplicate = failure(await create('alice', { name: 'overdue receivables ' }), 400, 'validation_failed');
    expect(duplicate.message).toBe(sceneMessages.nameDuplicated);
    // A system scene's name is taken too (create checks against all scenes).
    const system = (await scenes('alice')).find((s) => s.isSystem)!;
    expect(failure(await create('alice', { name: system.name }), 400, 'validation_failed').message).toBe(sceneMessages.nameDuplicated);
    // Names are per user.
    okData('ledgerSceneCreate', await create('bob', { name: 'overdue receivables' }));
  });

  it('validates the name: required, at most 50 characters', async () => {
    for (const name of ['', '   ']) {
      const refused = failure(await create('alice', { name }), 400, 'validation_failed');
      expect(refused.message).toContain(sceneMessages.nameEmpty);
      expect(refused.issues?.[0]?.path).toBe('name');
    }
    expect(failure(await create('alice', {}), 400, 'validation_failed').issues?.[0]?.path).toBe('name');
    expect(failure(await create('alice', { name: 'x'.repeat(51) }), 400, 'validation_failed').issues?.[0]?.path).toBe('name');
    okData('ledgerSceneCreate', await create('alice', { name: `  ${'y'.repeat(50)}  ` }));
  });

  it('refuses unknown fields, unknown field ids and unknown performances, writing nothing', async () => {
    const before = (await scenes('alice')).length;
    failure(await create('alice', { name: 'a', extra: 1 }), 400, 'validation_failed');
    expect(failure(await create('alice', { name: 'b', titleIDs: ["name'; drop table ledger_scenes; --"] }), 400, 'validation_failed').message).toMatch(/unknown ledger field/);
    failure(await create('alice', { name: 'c', filterIDs: ['nope'] }), 400, 'validation_failed');
    failure(await create('alice', { name: 'd', performanceId: '01900000-0000-7000-8000-0000000000ff' }), 400, 'validation_failed');
    failure(await create('alice', { name: 'e', titleIDs: 'name' }), 400, 'validation_failed');
    expect(failure(await callEndpoint(app, 'ledgerSceneCreate', { token: tokens.get('alice')!, rawBody: '{"name": ' }), 400, 'bad_request')).toBeTruthy();
    expect((await scenes('alice')).length).toBe(before);
  });

  it('saves edits, order and the default from the full list, and deletes the scenes left out', async () => {
    const current = await scenes('alice');
    const custom = current.filter((s) => !s.isSystem);
    const [removed, ...kept] = custom;
    const list = asSaved([...kept.reverse(), ...current.filter((s) => s.isSystem)]).map((s, i) => ({
      ...s,
      isDefault: i === 0,
      name: i === 0 ? '  renamed  ' : s.name,
      titleIDs: i === 0 ? ['taskType'] : s.titleIDs,
    }));
    const saved = okData('ledgerScenesSave', await save('alice', list));
    expect(saved.map((s) => s.id)).toEqual(list.map((s) => s.id));
    expect(saved[0]!.name).toBe('renamed');
    expect(saved[0]!.titleIDs).toEqual(['name', 'taskType']);
    expect(saved[0]!.version).toBe(list[0]!.version! + 1);
    expect(saved.filter((s) => s.isDefault).map((s) => s.id)).toEqual([list[0]!.id]);
    expect(saved.some((s) => s.id === removed!.id)).toBe(false);
  });

  it('lets one save swap two names, and refuses a duplicate among the others', async () => {
    const current = asSaved(await scenes('alice'));
    const [a, b] = current.filter((s) => !s.isSystem);
    const swapped = current.map((s) => (s.id === a!.id ? { ...s, name: b!.name } : s.id === b!.id ? { ...s, name: a!.name } : s));
    const saved = okData('ledgerScenesSave', await save('alice', swapped));
    expect(saved.find((s) => s.id === a!.id)!.name).toBe(b!.name);
    const again = asSaved(saved);
    // a now bears b's old name and b bears a's: naming a like b again clashes.
    const clash = again.map((s) => (s.id === a!.id ? { ...s, name: ` ${a!.name} ` } : s));
    expect(failure(await save('alice', clash), 400, 'validation_failed').message).toBe(sceneMessages.nameDuplicated);
  });

  it('never deletes a system scene, and demands exactly one default', async () => {
    const current = asSaved(await scenes('alice'));
    const withoutSystem = current.filter((s) => !s.isSystem).map((s, i) => ({ ...s, isDefault: i === 0 }));
    expect(failure(await save('alice', withoutSystem), 400, 'validation_failed').message).toBe(sceneMessages.systemUndeletable);
    expect(failure(await save('alice', current.map((s) => ({ ...s, isDefault: false }))), 400, 'validation_failed').message).toBe(sceneMessages.oneDefault);
    expect(failure(await save('alice', current.map((s) => ({ ...s, isDefault: true }))), 400, 'validation_failed').message).toBe(sceneMessages.oneDefault);
    const flipped = current.map((s) => (s.isSystem ? { ...s, isSystem: false } : s));
    failure(await save('alice', flipped), 400, 'validation_failed');
    expect(asSaved(await scenes('alice'))).toEqual(current);
  });

  it('answers 409 to a stale version and 404 to another user’s scene', async () => {
    const current = asSaved(await scenes('alice'));
    okData('ledgerScenesSave', await save('alice', current.map((s, i) => (i === 0 ? { ...s, name: 'fresh name' } : s))));
    failure(await save('alice', current), 409, 'conflict');
    const bobs = asSaved(await scenes('bob'));
    const mine = asSaved(await scenes('alice'));
    failure(await save('alice', [...mine, { ...bobs[0]!, name: 'bob’s own', isDefault: false }]), 404, 'not_found');
    failure(await callEndpoint(app, 'ledgerTitles', { token: tokens.get('alice')!, query: { configId: bobs[0]!.id } }), 404, 'not_found');
  });

  it('keeps a sort by one of its columns: made with it, saved, read back and applied by its search unless the search asks its own', async () => {
    const made = okData('ledgerSceneCreate', await create('alice', { name: 'due first', titleIDs: ['expirationTime', 'receivableAmount'], sortField: { id: 'expirationTime', key: 1 } }));
    expect(made.sortField).toEqual({ id: 'expirationTime', key: 1 });
    expect((await scenes('alice')).find((s) => s.id === made.id)!.sortField).toEqual({ id: 'expirationTime', key: 1 });

    const current = asSaved(await scenes('alice'));
    const resorted = current.map((s) => (s.id === made.id ? { ...s, sortField: { id: 'receivableAmount', key: -1 as const, type: 'money' as const } } : s));
    const saved = okData('ledgerScenesSave', await save('alice', resorted)).find((s) => s.id === made.id)!;
    expect(saved.sortField).toEqual({ id: 'receivableAmount', key: -1, type: 'money' });
    expect(saved.version).toBe(made.version + 1);
    // Sorted by 'name', which every scene shows.
    const byName = asSaved(await scenes('alice')).map((s) => (s.id === made.id ? { ...s, sortField: { id: 'name', key: 1 as const } } : s));
    okData('ledgerScenesSave', await save('alice', byName));
    expect((await scenes('alice')).find((s) => s.id === made.id)!.sortField).toEqual({ id: 'name', key: 1 });

    const search = async (body: Record<string, unknown>) => okData('ledgerSearch', await callEndpoint(app, 'ledgerSearch', { token: tokens.get('alice')!, body: { pageNum: 1, pageSize: 50, ...body } }));
    const names = (page: { list: { data: Record<string, unknown> }[] }) => page.list.map((row) => String(row.data.name));
    const kept = await search({ standingBookID: made.id });
    expect(kept.count).toBeGreaterThan(1);
    expect(names(kept)).toEqual(names(await search({ standingBookID: made.id, sortField: { id: 'name', key: 1 } })));
    expect(names(kept)).not.toEqual(names(await search({ standingBookID: made.id, sortField: { id: 'name', key: -1 } })));
    // null asks for the default order over the kept sort: newest update first.
    const unsorted = await search({ standingBookID: made.id, sortField: null });
    expect(names(unsorted)).toEqual(names(await search({ standingBookID: made.id, sortField: { id: 'updateTime', key: -1 }, titleIDs: ['updateTime'] })));
  });

  it('refuses a kept sort on a field the scene does not show, an unknown one or one that cannot be sorted, changing nothing', async () => {
    const current = asSaved(await scenes('alice'));
    const target = current.find((s) => s.name === 'due first')!;
    okData('ledgerScenesSave', await save('alice', current.map((s) => (s.id === target.id ? { ...s, sortField: { id: 'expirationTime', key: -1 as const } } : s))));
    const before = asSaved(await scenes('alice'));
    const refusals: [unknown, string, string][] = [
      [{ id: 'contractNumber', key: 1 }, 'sortField.id', sceneMessages.sortNotShown],
      [{ id: 'nope', key: 1 }, 'sortField.id', 'unknown ledger field: nope'],
      [{ id: 'expirationTime', key: 1, type: 'money' }, 'sortField.type', 'field expirationTime is of type date'],
    ];
    for (const [sortField, path, message] of refusals) {
      const refused = failure(await create('alice', { name: `sorted ${path} ${message}`.slice(0, 50), titleIDs: ['expirationTime'], sortField }), 400, 'validation_failed');
      expect(refused.issues).toEqual([{ path, message }]);
      const list = before.map((s) => (s.id === target.id ? { ...s, sortField } : s));
      const index = list.findIndex((s) => s.id === target.id);
      expect(failure(await save('alice', list), 400, 'validation_failed').issues).toEqual([{ path: `${index}.${path}`, message }]);
    }
    failure(await create('alice', { name: 'bad key', sortField: { id: 'name', key: 2 } }), 400, 'validation_failed');
    failure(await create('alice', { name: 'extra', sortField: { id: 'name', key: 1, by: 'x' } }), 400, 'validation_failed');
    // Columns saved without the sorted column while the sort stays: refused too.
    const hidden = before.map((s) => (s.id === target.id ? { ...s, titleIDs: ['name'] } : s));
    expect(failure(await save('alice', hidden), 400, 'validation_failed').message).toBe(sceneMessages.sortNotShown);
    expect(asSaved(await scenes('alice'))).toEqual(before);
  });

  it('lists the title fields of a scene, its titles first and marked, the name column always among them', async () => {
    const scene = (await scenes('alice')).find((s) => s.name === 'fresh name') ?? (await scenes('alice'))[0]!;
    const { fields } = okData('ledgerTitles', await callEndpoint(app, 'ledgerTitles', { token: tokens.get('alice')!, query: { configId: scene.id } }));
    expect(fields.slice(0, scene.titleIDs.length).map((f) => f.id)).toEqual(scene.titleIDs);
    expect(fields.find((f) => f.id === 'name')).toMatchObject({ isTitle: true, category: 'system' });
    expect(fields.some((f) => f.category === 'contract')).toBe(true);
    failure(await callEndpoint(app, 'ledgerTitles', { token: tokens.get('alice')!, query: { configId: '01900000-0000-7000-8000-0000000000ff' } }), 404, 'not_found');
    failure(await callEndpoint(app, 'ledgerTitles', { token: tokens.get('alice')!, query: { configId: 'x'.repeat(65) } }), 400, 'validation_failed');
  });

  describe('without a token', () => {
    it('answers 401 to every scene call', async () => {
      failure(await callEndpoint(app, 'ledgerScenes'), 401, 'unauthorized');
      failure(await callEndpoint(app, 'ledgerSceneCreate', { body: { name: 'x' } }), 401, 'unauthorized');
      failure(await callEndpoint(app, 'ledgerScenesSave', { body: [] }), 401, 'unauthorized');
      failure(await callEndpoint(app, 'ledgerTitles'), 401, 'unauthorized');
    });
  });
});
