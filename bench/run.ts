import { benchFirstPull } from './first-pull.bench';
import { benchFormCalculation } from './form-calculation.bench';
import { benchFormRender } from './form-render.bench';
import { benchLedgerScenes } from './ledger-scenes.bench';
import { benchLedgerReplica } from './ledger-replica.bench';
import { benchDashboardReplica } from './dashboard-replica.bench';

// npm run bench: the desktop app's performance figures (docs/performance.md).
// BENCH_ONLY=ledgerScenes,dashboard runs only the named parts (the machine is shared).
const parts: Record<string, () => Promise<void>> = {
  ledgerReplica: benchLedgerReplica,
  firstPull: benchFirstPull,
  formCalculation: benchFormCalculation,
  formRender: benchFormRender,
  dashboard: benchDashboardReplica,
  ledgerScenes: () => benchLedgerScenes(),
  // Parts of ledgerScenes alone (each fills its own replica).
  scenePage: () => benchLedgerScenes(['scenePage']),
  sceneExport: () => benchLedgerScenes(['sceneExport']),
};
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !(name in parts));
if (unknown && unknown.length > 0) throw new Error(`BENCH_ONLY names no bench part: ${unknown.join(', ')} (parts: ${Object.keys(parts).join(', ')})`);
for (const [name, run] of Object.entries(parts)) if (!only || only.includes(name)) await run();
