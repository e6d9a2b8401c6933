import { eq, sql } from 'drizzle-orm';
import type { ContractChange, MutationOutcome, SyncChange } from '../../src-shared/api/sync';
import type { MutationArgs, MutationName, RowKey } from '../../src-shared/sync/mutations';
import type { ServerDb } from '../db/database';
import { contracts } from '../db/schema';
import { alterLockedContract, insertContract, patchContract, stepLockedContract } from '../contract-forms/contracts';
import { selectContractRows, toSyncContract, visibleTo, type Viewer } from '../contracts/repository';
import type { OrgViewer } from '../http/feature-helpers';

// The server side of the shared mutation registry: how each mutation changes the database, and
// how each entity a mutation may touch is locked and read back. `applyMutation` is keyed by
// mutation name, so a mutation added to the registry without a server implementation does not
// type-check.

export interface LockedRow {
  version: number;
  /** Whether the viewer may see (and so edit) the row. */
  visible: boolean;
  /**
   * The version at which each field group last changed, for an entity that keeps them (a
   * field_versions column kept by the sync_track_field_versions trigger, migration 0020): its
   * edits conflict per field. Without it, any change of the row since the base is a conflict.
   */
  fieldVersions?: Record<string, number>;
}

interface EntityAccess {
  /** Locks the row until the transaction ends; undefined when it does not exist. */
  lock(tx: ServerDb, viewer: Viewer, id: string): Promise<LockedRow | undefined>;
  /** The row as the pull sends it, for a conflict's `current`. */
  current(tx: ServerDb, id: string): Promise<SyncChange | undefined>;
}

/** The entities a mutation may touch; tasks and reminder settings only sync down so far. */
type MutableEntity = ContractChange['entity'];

export const entities = {
  contract: {
    async lock(tx, viewer, id) {
      const visible = visibleTo(viewer);
      const [row] = await tx
        .select({ version: contracts.version, fieldVersions: contracts.fieldVersions, visible: visible ? sql<boolean>`coalesce(${visible}, false)` : sql<boolean>`true` })
        .from(contracts)
        .where(eq(contracts.id, id))
        .for('update');
      return row;
    },
    async current(tx, id) {
      const [row] = await selectContractRows(tx).where(eq(contracts.id, id));
      return row && { entity: 'contract', op: 'upsert', row: toSyncContract(row) };
    },
  },
} as const satisfies Record<MutableEntity, EntityAccess>;

export type EntityName = keyof typeof entities;

/** "contract:0192…" → its entity and id; the registry only names known entities. */
export function parseRowKey(key: RowKey): { entity: EntityName; id: string } {
  const at = key.indexOf(':');
  const entity = key.slice(0, at);
  if (!Object.prototype.hasOwnProperty.call(entities, entity)) throw new Error(`the mutation registry names an unknown entity in ${key}`);
  return { entity: entity as EntityName, id: key.slice(at + 1) };
}

type ApplyFunctions = { [N in MutationName]: (tx: ServerDb, args: MutationArgs<N>, viewer: OrgViewer, at: Date) => Promise<MutationOutcome | void> };

/**
 * Runs after the touched rows are locked, found visible and at their base versions. Each
 * mutation calls the feature's own write so the desktop's offline edits obey the REST rules.
 */
export const applyMutation: ApplyFunctions = {
  'contract.update': (tx, { id, patch }, viewer, at) => patchContract(tx, viewer, id, patch, at),
  // The client's provisional number is only what it showed: the rules decide the number here.
  'contract.create': async (tx, { provisionalNumber: _shown, ...body }, viewer, at) => {
    const created = await insertContract(tx, viewer, body, at);
    return { contractNumber: created.contractNumber };
  },
  'contract.alter': (tx, { id, formValues, reason }, viewer, at) => alterLockedContract(tx, viewer, id, { formValues, reason }, at),
  'contract.approvalStep': (tx, { id, action, comment }, viewer, at) => stepLockedContract(tx, viewer, id, action, comment, at),
};
