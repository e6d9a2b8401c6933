import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskState } from '../../src-shared/domain/enums';
import type { AppFailure } from '../../src-shared/errors';
import {
  blockingPredecessors,
  hasRelateCandidate,
  maxPredecessors,
  nameMatches,
  predecessorsOpenRefusal,
  relateCandidates,
  relateRefusal,
  unrelateRefusal,
  withoutPredecessor,
  withPredecessors,
  type RelatedTask,
} from '../../src-shared/rules/fulfilment';

// The predecessor rules (issue 28 item 4) the server and the core share: what holds a finish
// back, and which relations may be made or removed.

const contract = 'contract-1';
const task = (id: string, overrides: Partial<RelatedTask> = {}): RelatedTask => ({
  id,
  name: `Task ${id}`,
  state: TaskState.InProgress,
  contractId: contract,
  planId: 'plan-1',
  frontTaskIds: null,
  expirationTime: '2026-11-20',
  rowIndex: Number(id.replace(/\D/g, '')) || 0,
  ...overrides,
});
const ids = (tasks: readonly RelatedTask[]) => tasks.map((t) => t.id);
const reasonOf = (failure: AppFailure | null) => failure?.error.reason?.key ?? null;

describe('what holds a finish back', () => {
  it('is the unfinished related predecessors of a task under a plan, not the other earlier tasks', () => {
    const tasks = [task('t1'), task('t2', { state: TaskState.Success }), task('t3'), task('t4', { frontTaskIds: ['t2', 't3'] })];
    expect(ids(blockingPredecessors(tasks[3]!, tasks))).toEqual(['t3']);
    expect(blockingPredecessors(tasks[2]!, tasks)).toEqual([]);
  });

  it('is every earlier unfinished task of its contract for a task under no plan (spec 4), its related ones too, in sheet order', () => {
    const tasks = [
      task('t1', { expirationTime: '2026-12-01' }),
      task('t2', { expirationTime: '2026-11-01' }),
      task('t5', { expirationTime: null }),
      task('t4', { planId: null, expirationTime: '2026-11-15', frontTaskIds: ['t5'] }),
      task('t3', { expirationTime: '2026-11-10', state: TaskState.Success }),
    ];
    expect(ids(blockingPredecessors(tasks[3]!, tasks))).toEqual(['t2', 't5']);
  });

  it('ignores tasks of other contracts (relations earlier versions allowed) and those finished before it in the same batch', () => {
    const tasks = [task('t1'), task('t2', { contractId: 'contract-2' }), task('t3', { frontTaskIds: ['t1', 't2'] })];
    expect(ids(blockingPredecessors(tasks[2]!, tasks))).toEqual(['t1']);
    expect(blockingPredecessors(tasks[2]!, tasks, new Set(['t1']))).toEqual([]);
    expect(blockingPredecessors(task('q', { contractId: null, planId: null }), tasks)).toEqual([]);
  });

  it('refuses a finish with the names of what holds it back, in the catalog reason', () => {
    expect(predecessorsOpenRefusal(task('t1'), [])).toBeNull();
    const refusal = predecessorsOpenRefusal(task('t3'), [task('t1'), task('t2')]);
    expect(refusal?.error).toMatchObject({ code: 'conflict', reason: { key: 'predecessorsOpen', params: { task: 'Task t3', names: '"Task t1", "Task t2"' } } });
  });
});

describe('relating and unrelating', () => {
  const sheet = [task('t1'), task('t2', { frontTaskIds: ['t1'] }), task('t3', { frontTaskIds: ['t2'] }), task('t4')];
  const none = () => null;

  it('takes earlier tasks of the same contract, each once, up to the limit', () => {
    expect(relateRefusal(sheet[3]!, ['t1', 't2', 't1'], sheet, none)).toBeNull();
    expect(reasonOf(relateRefusal(sheet[0]!, ['t1'], sheet, none))).toBe('ownPredecessor');
    expect(reasonOf(relateRefusal(sheet[0]!, ['t4'], sheet, none))).toBe('predecessorNotEarlier');
    expect(reasonOf(relateRefusal(sheet[0]!, ['elsewhere'], sheet, () => task('elsewhere', { contractId: 'contract-2' })))).toBe('predecessorOtherContract');
    expect(relateRefusal(sheet[0]!, ['unknown'], sheet, none)?.error.code).toBe('not_found');
    const many = Array.from({ length: maxPredecessors + 1 }, (_, i) => task(`m${i}`, { rowIndex: i }));
    const last = task('last', { rowIndex: 100 });
    expect(relateRefusal(last, ids(many.slice(0, maxPredecessors)), [...many, last], none)).toBeNull();
    expect(reasonOf(relateRefusal({ ...last, frontTaskIds: ['m0'] }, ids(many.slice(1)), [...many, last], none))).toBe('predecessorLimit');
  });

  it('refuses a relation that closes a cycle once dates have moved the order, a finished task and a quick task', () => {
    // t1 is due after t3 now: t3 comes first in the sheet, yet follows t1 through t2.
    const moved = sheet.map((t) => (t.id === 't1' ? { ...t, expirationTime: '2026-12-31' } : t));
    expect(reasonOf(relateRefusal(moved[0]!, ['t3'], moved, none))).toBe('predecessorCycle');
    expect(reasonOf(relateRefusal(task('t9', { state: TaskState.Success }), ['t1'], sheet, none))).toBe('finishedTaskReadOnly');
    expect(reasonOf(relateRefusal(task('q', { contractId: null }), ['t1'], sheet, none))).toBe('quickTaskOpened');
  });

  it('lists as candidates exactly the tasks a relate accepts, in sheet order, and says whether there is one', () => {
    const tasks = [task('t1'), task('t2', { frontTaskIds: ['t1'] }), task('t3', { state: TaskState.Success }), task('t4', { frontTaskIds: ['t2'] }), task('t5')];
    expect(ids(relateCandidates(tasks[3]!, tasks))).toEqual(['t1', 't3']);
    expect(relateCandidates(task('q', { contractId: null }), tasks)).toEqual([]);
    fc.assert(
      fc.property(fc.array(fc.record({ due: fc.integer({ min: 1, max: 4 }), fronts: fc.array(fc.nat(7), { maxLength: 3 }) }), { minLength: 1, maxLength: 8 }), (specs) => {
        const drawn = specs.map((spec, i) => task(`r${i}`, { rowIndex: i, expirationTime: `2026-11-0${spec.due}`, frontTaskIds: spec.fronts.filter((f) => f < i).map((f) => `r${f}`) }));
        for (const subject of drawn) {
          const candidates = new Set(ids(relateCandidates(subject, drawn)));
          // A sheet row offers its relate action exactly when it has a candidate.
          expect(hasRelateCandidate(subject, new Map(drawn.map((other) => [other.id, other])))).toBe(candidates.size > 0);
          for (const other of drawn) {
            const accepted = relateRefusal(subject, [other.id], drawn, none) === null && !(subject.frontTaskIds ?? []).includes(other.id);
            expect(candidates.has(other.id), `${subject.id} ← ${other.id}`).toBe(accepted);
          }
        }
      }),
    );
  });

  it('removes only a relation the task has, never of a finished task', () => {
    expect(unrelateRefusal(sheet[1]!, 't1')).toBeNull();
    expect(reasonOf(unrelateRefusal(sheet[1]!, 't4'))).toBe('noSuchPredecessor');
    expect(reasonOf(unrelateRefusal({ ...sheet[1]!, state: TaskState.Success }, 't1'))).toBe('finishedTaskReadOnly');
  });

  it('keeps a task predecessors once each, in id order, and none as null', () => {
    expect(withPredecessors(null, ['b', 'a', 'b'])).toEqual(['a', 'b']);
    expect(withPredecessors(['c'], ['a'])).toEqual(['a', 'c']);
    expect(withoutPredecessor(['a', 'c'], 'a')).toEqual(['c']);
    expect(withoutPredecessor(['a'], 'a')).toBeNull();
  });

  it('matches a search in any case, an empty one matching all', () => {
    expect(nameMatches('第2期 Invoice', 'invoice ')).toBe(true);
    expect(nameMatches('第2期', '第2')).toBe(true);
    expect(nameMatches('第2期', '第3')).toBe(false);
    expect(nameMatches('x', undefined)).toBe(true);
  });
});
