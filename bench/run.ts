import { benchLedgerReplica } from './ledger-replica.bench';

// npm run bench: every figure of the desktop app's performance targets (docs/performance.md).
await benchLedgerReplica();
