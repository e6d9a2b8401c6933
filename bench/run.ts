import { benchFirstPull } from './first-pull.bench';
import { benchLedgerReplica } from './ledger-replica.bench';

// npm run bench: the desktop app's performance figures (docs/performance.md).
await benchLedgerReplica();
await benchFirstPull();
