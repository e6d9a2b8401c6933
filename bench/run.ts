import { benchFirstPull } from './first-pull.bench';
import { benchFormCalculation } from './form-calculation.bench';
import { benchFormRender } from './form-render.bench';
import { benchFullText } from './full-text.bench';
import { benchLedgerReplica } from './ledger-replica.bench';
import { benchDashboardReplica } from './dashboard-replica.bench';

// npm run bench: the desktop app's performance figures (docs/performance.md).
await benchLedgerReplica();
await benchFirstPull();
await benchFormCalculation();
await benchFormRender();
await benchDashboardReplica();
await benchFullText();
