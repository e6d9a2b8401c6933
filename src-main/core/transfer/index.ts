import { inArray } from 'drizzle-orm';
import { AppFailure, reason } from '../../../src-shared/errors';
import { contractsOverlay } from '../data/schema';
import type { CoreFeature, FeatureHost } from '../feature';
import { onlineCall } from '../session/online-call';

// The batch transfer of the responsible person (spec 5, 6). It changes who may see a contract, so
// it is online only (UI.md "Offline"): refused at once with 'offline' while the server is away.
// The contracts that leave the user's view then leave the replica with the pull that follows.

export type TransferChannel = 'contract.transfer';

export function createTransferFeature(host: FeatureHost): CoreFeature<TransferChannel> {
  return {
    handlers: {
      'contract.transfer': async (request) => {
        const session = host.signedIn();
        const sync = host.sync();
        if (!sync.status().online) throw new AppFailure('offline');
        // The server refuses a contract the user cannot see; so does the core, before any call.
        const ids = [...new Set(request.contractIDList)];
        const known = new Set(
          session.replica.db.select({ id: contractsOverlay.id }).from(contractsOverlay).where(inArray(contractsOverlay.id, ids)).all().map((row) => row.id),
        );
        const missing = ids.find((id) => !known.has(id));
        if (missing !== undefined) throw new AppFailure('not_found', `contract not found: ${missing}`, undefined, reason('contractNotOnDevice'));
        const { count } = await onlineCall(session, 'contractTransfer', { body: request });
        // The moved contracts leave this replica (or change hands in it) before the dialog closes.
        await sync.syncNow();
        return { count };
      },
    },
  };
}
