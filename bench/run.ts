import { benchFirstPull } from './first-pull.bench';
import { benchFormCalculation } from './form-calculation.bench';
import { benchFormRender } from './form-render.bench';
import { benchLedgerScenes, ledgerScenesParts } from './ledger-scenes.bench';
import { benchLedgerReplica } from './ledger-replica.bench';
import { benchDashboardReplica } from './dashboard-replica.bench';
import { benchContractDocumentFill } from './contract-document.bench';
import { benchDocumentRender } from './document-render.bench';
import { benchEncryption } from './encryption.bench';
import { benchKeptReads } from './kept-reads.bench';

// npm run bench: the desktop app's performance figures (docs/performance.md).
// BENCH_ONLY=ledgerScenes,dashboard runs only the named parts (the machine is shared);
// BENCH_ONLY=ledgerScenes:fullText runs only the full-text search of ledgerScenes (over the same data).
const parts: Record<string, (subparts?: readonly string[]) => Promise<void>> = {
  ledgerReplica: benchLedgerReplica,
  firstPull: benchFirstPull,
  formCalculation: benchFormCalculation,
  formRender: benchFormRender,
  dashboard: benchDashboardReplica,
  contractDocument: benchContractDocumentFill,
  documentRender: benchDocumentRender,
  ledgerScenes: (subparts) => benchLedgerScenes(ledgerScenesParts.filter((part) => !subparts || subparts.includes(part))),
  // Parts of ledgerScenes alone (each fills its own replica), as ledgerScenes:<part> does.
  scenePage: () => benchLedgerScenes(['scenePage']),
  sceneExport: () => benchLedgerScenes(['sceneExport']),
  encryption: benchEncryption,
  keptReads: benchKeptReads,
};
const subparts: Record<string, readonly string[]> = { ledgerScenes: ledgerScenesParts };
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const known = (name: string) => {
  const [part = '', sub] = name.split(':');
  return part in parts && (sub === undefined || (subparts[part]?.includes(sub) ?? false));
};
const unknown = only?.filter((name) => !known(name));
if (unknown && unknown.length > 0) {
  const names = Object.keys(parts).flatMap((part) => [part, ...(subparts[part] ?? []).map((sub) => `${part}:${sub}`)]);
  throw new Error(`BENCH_ONLY names no bench part: ${unknown.join(', ')} (parts: ${names.join(', ')})`);
}
for (const [name, run] of Object.entries(parts)) {
  if (!only || only.includes(name)) await run();
  else {
    const picked = only.filter((entry) => entry.startsWith(`${name}:`)).map((entry) => entry.slice(name.length + 1));
    if (picked.length > 0) await run(picked);
  }
}
