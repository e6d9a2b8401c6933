import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { definitionMessages } from '../../src-shared/rules/performance-definitions';
import { performances } from '../../src-server/performance/schema';
import { callEndpoint, describeOnDatabases, failure, okData } from './support';
import { performanceWorld, type PerformanceWorld } from './performance-fixture';

// Performance definitions as the definitions screen writes them (issue 28 item 1): the rules
// across columns and fields refused with their message and nothing written; the edit based on a
// version named in the body (online.call sends no headers) refused when stale, with a reason the
// app shows in the user's language; a malformed If-Match refused; a definition in use kept.

const columns = [
  { id: 'name', name: 'performance content', type: 'text', isRequired: true },
  { id: 'expirationTime', name: 'performance date', type: 'date', isRequired: true },
  { id: 'receivableAmount', name: 'receivable amount', type: 'money', isRequired: true },
  { id: 'grade', name: 'Acceptance grade', type: 'select', config: { options: [{ id: 'a', name: 'Passed' }, { id: 'b', name: 'Failed' }] } },
];

describeOnDatabases('performance definitions', (fixture) => {
  let w: PerformanceWorld;
  beforeAll(async () => {
    w = await performanceWorld(fixture);
  });

  const stored = async (name: string) => fixture.db.select().from(performances).where(eq(performances.name, name));

  it('creates a definition with a choice column and its options and a required money column', async () => {
    const created = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: w.people.admin.token, body: { name: 'Acceptance', type: 'receivable', columns } }));
    expect(created.columns.find((column) => column.id === 'grade')?.config?.options?.map((option) => option.name)).toEqual(['Passed', 'Failed']);
    expect(created.columns.find((column) => column.id === 'receivableAmount')).toMatchObject({ type: 'money', isRequired: true });
    const listed = okData('performanceList', await callEndpoint(w.app, 'performanceList', { token: w.people.alice.token, query: { q: 'Acceptance' } }));
    expect(listed.performanceList.map((performance) => performance.id)).toEqual([created.id]);
  });

  it('refuses a choice without options, repeated names, a second state column and a task column of another type, writing nothing', async () => {
    const cases = [
      { columns: [...columns.slice(0, 3), { id: 'grade', name: 'Grade', type: 'select' }], message: definitionMessages.optionsRequired },
      { columns: [...columns, { id: 'other', name: 'Acceptance grade', type: 'text' }], message: definitionMessages.duplicateColumnName },
      {
        columns: [...columns, { id: 's1', name: 'State', type: 'select', isState: true }, { id: 's2', name: 'State 2', type: 'select', isState: true }],
        message: definitionMessages.oneStateColumn,
      },
      { columns: [{ ...columns[1]!, type: 'text' }], message: definitionMessages.taskColumnType },
    ];
    for (const [i, { columns: refused, message }] of cases.entries()) {
      const name = `Refused ${i}`;
      const error = failure(await callEndpoint(w.app, 'performanceCreate', { token: w.people.admin.token, body: { name, type: 'receivable', columns: refused } }), 400, 'validation_failed');
      expect(error.issues?.map((issue) => issue.message)).toContain(message);
      expect(await stored(name)).toEqual([]);
    }
  });

  it('keeps the column options the sheet rules read, and refuses bad ones on create and edit, writing nothing (issue 28)', async () => {
    const { admin } = w.people;
    const set = [
      ...columns,
      { id: 'deposit', name: 'Deposit', type: 'money', config: { relatedFieldId: 'amount', valueRange: { mode: 1, conditions: [{ comparator: 'greater', value: '0' }, { comparator: 'lessOrEqual', value: '500000' }] } } },
      { id: 'signed', name: 'Signed on', type: 'date', config: { relatedFieldId: 'signDate' } },
      { id: 'site', name: 'Site', type: 'text', config: { relatedFieldId: 'deliveryPlace' } },
      { id: 'due', name: 'Due', type: 'performanceTime', config: { referenceNodes: [{ id: 'n1', name: 'Acceptance' }, { id: 'n2', name: 'Delivery' }] } },
    ];
    const created = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name: 'Options kept', type: 'receivable', columns: set } }));
    expect(created.columns.slice(4).map((column) => column.config)).toEqual(set.slice(4).map((column) => column.config));

    const cases = [
      // A basic contract field of another kind; a field of the contract's own template (deliveryPlace) is taken above.
      { column: { id: 'deposit', name: 'Deposit', type: 'money', config: { relatedFieldId: 'signDate' } }, message: definitionMessages.relatedFieldKind },
      { column: { id: 'buyer', name: 'Buyer', type: 'outerParty', config: { relatedFieldId: 'amount' } }, message: definitionMessages.relatedFieldKind },
      { column: { id: 'qty', name: 'Qty', type: 'number', config: { valueRange: { mode: 1, conditions: [{ comparator: 'greater', value: '10' }, { comparator: 'less', value: '5' }] } } }, message: definitionMessages.valueRangeInvalid },
      { column: { id: 'qty', name: 'Qty', type: 'number', config: { valueRange: { mode: 2, conditions: [{ comparator: 'equal', value: '1.123456789' }] } } }, message: definitionMessages.valueRangeInvalid },
      { column: { id: 'due', name: 'Due', type: 'performanceTime', config: { referenceNodes: [{ id: 'n1', name: 'Acceptance' }, { id: 'n2', name: 'Acceptance' }] } }, message: definitionMessages.duplicateNode },
      { column: { id: 'due', name: 'Due', type: 'performanceTime', config: { referenceNodes: [{ id: 'n1', name: ' ' }] } }, message: definitionMessages.emptyNode },
    ];
    for (const [i, { column, message }] of cases.entries()) {
      const name = `Refused option ${i}`;
      const refused = failure(await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name, type: 'receivable', columns: [...columns, column] } }), 400, 'validation_failed');
      expect(refused.issues?.map((issue) => issue.message)).toContain(message);
      expect(await stored(name)).toEqual([]);
      const edit = await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { columns: [...columns, column], version: created.version } });
      expect(failure(edit, 400, 'validation_failed').issues?.map((issue) => issue.message)).toContain(message);
    }
    expect((await stored('Options kept'))[0]).toMatchObject({ version: created.version, columns: set });
  });

  it('edits based on the version named in the body: a stale one is refused with its reason and the current definition', async () => {
    const { admin } = w.people;
    const created = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name: 'Versioned', type: 'recall', columns: columns.slice(0, 2) } }));
    const edited = okData('performanceUpdate', await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { name: 'Versioned 2', columns, version: created.version } }));
    expect(edited).toMatchObject({ name: 'Versioned 2', version: created.version + 1 });
    expect(edited.columns.map((column) => column.id)).toEqual(columns.map((column) => column.id));

    const stale = await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { name: 'Lost', version: created.version } });
    const refused = failure(stale, 409, 'conflict');
    expect(refused.reason).toEqual({ key: 'performanceChanged' });
    expect((stale.json as { data: { name: string } }).data.name).toBe('Versioned 2');
    failure(await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { name: 'Odd' }, headers: { 'if-match': 'yesterday' } }), 400, 'bad_request');
    failure(await w.callWithId('performanceUpdate', created.id, { token: admin.token, body: { version: 'two' } }), 400, 'validation_failed');
    expect((await stored('Versioned 2')).map((row) => row.version)).toEqual([edited.version]);
  });

  it('refuses staff and keeps a definition in use, each with the reason the app shows', async () => {
    const { admin, alice } = w.people;
    const created = okData('performanceCreate', await callEndpoint(w.app, 'performanceCreate', { token: admin.token, body: { name: 'Unused', type: 'invoicing', columns: columns.slice(0, 2) } }));
    expect(failure(await w.callWithId('performanceDelete', created.id, { token: alice.token }), 403, 'forbidden').reason).toEqual({ key: 'adminsOnlyPerformances' });
    expect(failure(await callEndpoint(w.app, 'performanceCreate', { token: alice.token, body: { name: 'Mine', type: 'invoicing', columns } }), 403, 'forbidden').reason).toEqual({
      key: 'adminsOnlyPerformances',
    });
    const inUse = w.performanceOf('receivable');
    expect(failure(await w.callWithId('performanceDelete', inUse.id, { token: admin.token }), 409, 'conflict').reason).toEqual({ key: 'performanceInUse' });
    expect(await fixture.db.select().from(performances).where(eq(performances.id, inUse.id))).toHaveLength(1);
    okData('performanceDelete', await w.callWithId('performanceDelete', created.id, { token: admin.token }));
    expect(await stored('Unused')).toEqual([]);
  });
});
