import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { TransferHandleMethod } from '../../src-shared/domain/enums';
import { transferMessages, type Transfer } from '../../src-shared/domain/ledger';
import { AppFailure, reason } from '../../src-shared/errors';
import type { SessionUser } from '../auth/service';
import { visibleTo } from '../contracts/repository';
import type { ServerDb } from '../db/database';
import { contractAgents, contracts, users } from '../db/schema';
import { contractTransfers } from './schema';

// The batch transfer of the responsible person (spec 5, 6): the responsible person and the
// business handler's permission move to the new person, for good (each transfer is recorded).
// Method 2 keeps the former holders as agents, so they still see the contract. Whoever loses
// sight of a contract gets a delete in the change feed (the contracts_take_change_seq trigger).

/** Who may change a contract, and so transfer it: an administrator, its responsible person or its business handler. */
function mayChange(viewer: SessionUser, row: { responsibleUserId: string | null; businessHandlerUserId: string | null }): boolean {
  return viewer.role === 'admin' || row.responsibleUserId === viewer.id || row.businessHandlerUserId === viewer.id;
}

export async function transferContracts(db: ServerDb, viewer: SessionUser, body: Transfer, now: Date): Promise<{ message: string; count: number }> {
  const contractIds = [...new Set(body.contractIDList)];
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, body.userID), eq(users.organisationId, viewer.organisationId)));
    if (!target) throw new AppFailure('validation_failed', transferMessages.personRequired, [{ path: 'userID', message: transferMessages.personRequired }]);

    const rows = await tx
      .select({ id: contracts.id, responsibleUserId: contracts.responsibleUserId, businessHandlerUserId: contracts.businessHandlerUserId })
      .from(contracts)
      .where(and(inArray(contracts.id, contractIds), visibleTo(viewer)))
      .orderBy(contracts.id)
      .for('update', { of: contracts });
    const found = new Set(rows.map((row) => row.id));
    const missing = contractIds.find((id) => !found.has(id));
    if (missing !== undefined) throw new AppFailure('not_found', `contract not found: ${missing}`, undefined, reason('contractMissing'));
    const refused = rows.find((row) => !mayChange(viewer, row));
    if (refused) throw new AppFailure('forbidden', `you may not transfer contract ${refused.id}`, undefined, reason('transferRefused'));

    for (const row of rows) {
      const former = [...new Set([row.responsibleUserId, row.businessHandlerUserId])].filter((id): id is string => id !== null && id !== target.id);
      if (body.handleMethod === TransferHandleMethod.KeepAgentIdentity && former.length > 0) {
        await tx.insert(contractAgents).values(former.map((userId) => ({ contractId: row.id, userId }))).onConflictDoNothing();
      }
      // The new responsible person needs no agent identity beside it.
      await tx.delete(contractAgents).where(and(eq(contractAgents.contractId, row.id), eq(contractAgents.userId, target.id)));
      await tx
        .update(contracts)
        .set({ responsibleUserId: target.id, businessHandlerUserId: target.id, version: sql`${contracts.version} + 1`, updateTime: now })
        .where(eq(contracts.id, row.id));
      await tx.insert(contractTransfers).values({
        id: uuidv7(), contractId: row.id, fromUserId: row.businessHandlerUserId ?? row.responsibleUserId, toUserId: target.id,
        handleMethod: body.handleMethod, reason: body.reason, createdBy: viewer.id, createTime: now,
      });
    }
    return { message: transferMessages.succeeded, count: rows.length };
  });
}
