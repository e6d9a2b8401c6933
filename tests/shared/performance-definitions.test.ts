import { describe, expect, it } from 'vitest';
import { performanceCreateSchema, performanceTaskTypes, performanceUpdateSchema } from '../../src-shared/domain/performance';
import { defaultPerformanceForm } from '../../src-shared/rules/performance';
import { definitionIssues, definitionMessages } from '../../src-shared/rules/performance-definitions';

// The rules of a performance definition across its columns and fields (issue 28 item 1), which
// the server enforces through the create and update schemas and the editor checks before sending.

const text = (id: string, name: string) => ({ id, name, type: 'text' as const, isRequired: false, isState: false });
const choice = (id: string, name: string, options?: string[]) => ({
  id,
  name,
  type: 'select' as const,
  isRequired: false,
  isState: false,
  ...(options && { config: { options: options.map((option, i) => ({ id: `${id}-${i}`, name: option })) } }),
});

describe('performance definition rules', () => {
  it("accepts every task type's default form as it is", () => {
    for (const type of performanceTaskTypes) expect(definitionIssues(defaultPerformanceForm(type))).toEqual([]);
  });

  it('refuses repeated column names and ids, naming the later one', () => {
    expect(definitionIssues({ columns: [text('a', 'Content'), text('b', ' Content ')] })).toEqual([{ path: ['columns', 1, 'name'], message: definitionMessages.duplicateColumnName }]);
    expect(definitionIssues({ columns: [text('a', 'One'), text('a', 'Two')] })).toEqual([{ path: ['columns', 1, 'id'], message: definitionMessages.duplicateColumnId }]);
  });

  it('wants options for a choice column, named and different, but not for the state column', () => {
    expect(definitionIssues({ columns: [choice('c', 'Grade')] })).toEqual([{ path: ['columns', 0, 'config', 'options'], message: definitionMessages.optionsRequired }]);
    expect(definitionIssues({ columns: [choice('c', 'Grade', [])] })).toEqual([{ path: ['columns', 0, 'config', 'options'], message: definitionMessages.optionsRequired }]);
    expect(definitionIssues({ columns: [choice('c', 'Grade', ['A', ' ', 'A'])] })).toEqual([
      { path: ['columns', 0, 'config', 'options', 1, 'name'], message: definitionMessages.emptyOption },
      { path: ['columns', 0, 'config', 'options', 2, 'name'], message: definitionMessages.duplicateOption },
    ]);
    expect(definitionIssues({ columns: [{ ...choice('s', 'State'), isState: true }] })).toEqual([]);
    expect(definitionIssues({ columns: [{ ...choice('s', 'State'), isState: true }, { ...choice('t', 'Other state'), isState: true }] })).toEqual([
      { path: ['columns', 1, 'isState'], message: definitionMessages.oneStateColumn },
    ]);
  });

  it("keeps the type of the columns holding the task's own values", () => {
    expect(definitionIssues({ columns: [{ ...text('expirationTime', 'Due'), type: 'text' }] })).toEqual([
      { path: ['columns', 0, 'type'], message: definitionMessages.taskColumnType },
    ]);
    expect(definitionIssues({ columns: [{ ...text('receivableAmount', 'Money'), type: 'money' }] })).toEqual([]);
  });

  it('checks the completion fields the same way', () => {
    const field = (id: string, name: string, type = 'text', options?: string[]) => ({ id, name, type, ...(options && { options: options.map((o, i) => ({ id: `${id}${i}`, name: o })) }) });
    expect(definitionIssues({ fields: [field('a', 'Date'), field('b', 'Date'), field('a', 'Other')] })).toEqual([
      { path: ['fields', 1, 'name'], message: definitionMessages.duplicateFieldName },
      { path: ['fields', 2, 'id'], message: definitionMessages.duplicateFieldId },
    ]);
    expect(definitionIssues({ fields: [field('m', 'Method', 'multiselect')] })).toEqual([{ path: ['fields', 0, 'options'], message: definitionMessages.optionsRequired }]);
    expect(definitionIssues({ fields: [field('m', 'Method', 'multiselect', ['Wire', 'Cheque'])] })).toEqual([]);
  });

  it('is part of the create and update bodies the server parses', () => {
    const created = performanceCreateSchema.safeParse({ name: 'Acceptance', type: 'recall', columns: [text('name', 'Content'), choice('grade', 'Grade')] });
    expect(created.success).toBe(false);
    expect(created.error?.issues).toEqual([expect.objectContaining({ path: ['columns', 1, 'config', 'options'], message: definitionMessages.optionsRequired })]);
    expect(performanceUpdateSchema.safeParse({ columns: [text('a', 'X'), text('b', 'X')] }).success).toBe(false);
    expect(performanceUpdateSchema.safeParse({ name: 'Renamed', version: 3 }).data).toEqual({ name: 'Renamed', version: 3 });
    expect(performanceUpdateSchema.safeParse({ version: -1 }).success).toBe(false);
  });
});
