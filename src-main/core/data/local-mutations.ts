import type { Contract } from '../../../src-shared/domain/contract';
import { rowKey, type MutationArgs, type MutationName, type RowKey } from '../../../src-shared/sync/mutations';

// The client side of each mutation in src-shared/sync/mutations.ts: its optimistic effect on the
// local rows. Args are validated with the shared schema before they get here. The mapped type
// makes a mutation without a client apply a type error.

/** The rows a replay works on: base rows, changed in place by the mutations re-applied so far. */
export interface WorkingRows {
  get(key: RowKey): Contract | null;
  put(key: RowKey, row: Contract): void;
}

type LocalApply<N extends MutationName> = (args: MutationArgs<N>, rows: WorkingRows) => void;

export const localApplies: { [N in MutationName]: LocalApply<N> } = {
  'contract.update': (args, rows) => {
    const key = rowKey('contract', args.id);
    const row = rows.get(key);
    // A contract gone from the replica (deleted, access lost) has nothing to show the edit on;
    // the server decides the mutation's fate.
    if (row) rows.put(key, { ...row, ...args.patch });
  },
};

export function applyLocal(name: MutationName, args: unknown, rows: WorkingRows): void {
  // The name and its args were checked together against the shared registry.
  (localApplies[name] as (args: unknown, rows: WorkingRows) => void)(args, rows);
}
