import { describe, expect, it } from 'vitest';
import { sceneCreateSchema, sceneMessages, sceneSchema, ledgerSearchSchema, type LedgerField } from '../../src-shared/domain/ledger';
import { ledgerFieldCatalogue } from '../../src-shared/domain/ledger-fields';
import { planSearch, type SearchScene } from '../../src-shared/rules/ledger-search';
import { sceneSortProblem, sortOfColumns } from '../../src-shared/rules/scenes';
import { mutations } from '../../src-shared/sync/mutations';
import { syncSceneSchema } from '../../src-shared/api/sync';

// A scene's kept sort (issue 28, journey 3 step 1): its shape in every schema that carries a
// scene, the rule the server and the core refuse a sort by, how an edit of the columns alone
// takes it, and the search plan applying it when the request names no sort of its own.

const catalogue: LedgerField[] = ledgerFieldCatalogue.map(({ kind: _kind, hasUnit: _hasUnit, ...field }) => field);
/** A contract form field registered for the ledger: shown and filtered, not sorted by. */
const formField: LedgerField = { id: 'deliverySite', name: 'delivery site', category: 'contract', type: 'others', config: {}, isDefaultFilter: false, isDefaultTitle: false };
const fields = [...catalogue, formField];
const columns = ['name', 'expirationTime', 'receivableAmount', 'deliverySite'];

describe("a scene's sort in the schemas", () => {
  it('is a column id and a direction, optionally the field type, nothing else', () => {
    expect(sceneCreateSchema.parse({ name: 'Due', sortField: { id: 'expirationTime', key: -1 } }).sortField).toEqual({ id: 'expirationTime', key: -1 });
    expect(sceneCreateSchema.parse({ name: 'Due' }).sortField).toBeNull();
    for (const sortField of [{ id: 'expirationTime', key: 0 }, { id: 'expirationTime' }, { id: '', key: 1 }, { id: 'expirationTime', key: 1, extra: true }, { id: 'expirationTime', key: 1, type: 'time' }]) {
      expect(sceneCreateSchema.safeParse({ name: 'Due', sortField }).success, JSON.stringify(sortField)).toBe(false);
    }
  });

  it('is carried by the REST scene, the feed scene and a scene.update patch, and a search may ask none (null)', () => {
    expect(sceneSchema.shape.sortField.safeParse(null).success).toBe(true);
    expect(syncSceneSchema.shape.sortField.safeParse({ id: 'name', key: 1 }).success).toBe(true);
    expect(syncSceneSchema.shape.sortField.safeParse(undefined).success).toBe(false);
    expect(mutations['scene.update'].args.parse({ id: '0192f000-0000-7000-8000-000000000001', patch: { sortField: null } }).patch).toEqual({ sortField: null });
    expect(ledgerSearchSchema.parse({ sortField: null }).sortField).toBeNull();
    expect(ledgerSearchSchema.parse({}).sortField).toBeUndefined();
  });
});

describe('sceneSortProblem', () => {
  it('takes no sort, and a sort by a shown system column (name always)', () => {
    expect(sceneSortProblem(null, [], fields)).toBeNull();
    expect(sceneSortProblem({ id: 'receivableAmount', key: -1, type: 'money' }, columns, fields)).toBeNull();
    expect(sceneSortProblem({ id: 'name', key: 1 }, ['expirationTime'], fields)).toBeNull();
  });

  it('refuses an unknown field, a column not shown, a field the ledger cannot sort by and a wrong type, each by its path', () => {
    expect(sceneSortProblem({ id: 'nope', key: 1 }, columns, fields)).toEqual({ path: 'sortField.id', message: 'unknown ledger field: nope' });
    expect(sceneSortProblem({ id: 'contractNumber', key: 1 }, columns, fields)).toEqual({ path: 'sortField.id', message: sceneMessages.sortNotShown });
    expect(sceneSortProblem({ id: 'deliverySite', key: 1 }, columns, fields)).toEqual({ path: 'sortField.id', message: 'the ledger cannot sort by deliverySite' });
    expect(sceneSortProblem({ id: 'expirationTime', key: 1, type: 'money' }, columns, fields)).toEqual({ path: 'sortField.type', message: 'field expirationTime is of type date' });
  });
});

describe('sortOfColumns', () => {
  it('keeps the sort while its column is shown and drops it with its column', () => {
    const sort = { id: 'expirationTime', key: -1 as const };
    expect(sortOfColumns(sort, columns)).toBe(sort);
    expect(sortOfColumns(sort, ['name', 'receivableAmount'])).toBeNull();
    expect(sortOfColumns({ id: 'name', key: 1 }, [])).toEqual({ id: 'name', key: 1 });
    expect(sortOfColumns(null, columns)).toBeNull();
  });
});

describe("the search plan and a scene's kept sort", () => {
  const scene: SearchScene = { titleIDs: columns, performanceId: null, filter: [], sortField: { id: 'expirationTime', key: -1 } };
  const plan = (search: object) => planSearch(ledgerSearchSchema.parse(search), fields, scene, '2026-11-20').sort;

  it("applies the scene's sort when the request names none", () => {
    expect(plan({})).toEqual({ field: 'expirationTime', ascending: false });
  });

  it("takes the request's own sort, or none for null, over the kept one", () => {
    expect(plan({ sortField: { id: 'receivableAmount', key: 1 } })).toEqual({ field: 'receivableAmount', ascending: true });
    expect(plan({ sortField: null })).toBeNull();
    expect(planSearch(ledgerSearchSchema.parse({}), fields, undefined, '2026-11-20').sort).toBeNull();
  });
});
