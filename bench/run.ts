import { benchFirstPull } from './first-pull.bench';
import { benchFormCalculation } from './form-calculation.bench';
import { benchFormRender } from './form-render.bench';
import { benchFullText } from './full-text.bench';
import { benchLedgerReplica } from './ledger-replica.bench';
import { benchDashboardReplica } from './dashboard-replica.bench';

// npm run bench: the desktop app's performance figures (docs/performance.md). BENCH=dashboard (a
// comma list of the names below) runs only those, so one figure can be measured on a busy machine.
const benches: Record<string, () => Promise<void>> = {
  ledger: benchLedgerReplica,
  'first-pull': benchFirstPull,
  'form-calculation': benchFormCalculation,
  'form-render': benchFormRender,
  dashboard: benchDashboardReplica,
  'full-text': benchFullText,
};
const only = process.env.BENCH?.split(',').map((name) => name.trim());
for (const [name, run] of Object.entries(benches)) if (!only || only.includes(name)) await run();
