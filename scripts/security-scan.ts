import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// `npm run scan:security` (part of `npm test`): Doyensec's electronegativity over the Electron
// shell. A finding above LOW fails unless docs/security.md explains it in its table of accepted
// findings (a row "| CHECK_ID | file | why |"); an accepted row that no longer matches fails too,
// so the document never claims more than the scan sees.

interface Issue {
  id: string;
  file: string;
  severity: { name: string; value: number };
  confidence: { name: string };
  location: { line: number; column: number };
}
type Scan = (options: Record<string, unknown>) => Promise<{ issues: Issue[]; errors: unknown[] }>;

const scan = createRequire(import.meta.url)('@doyensec/electronegativity') as Scan;
const electronVersion = (createRequire(import.meta.url)('electron/package.json') as { version: string }).version;

const accepted = new Set(
  [...readFileSync('docs/security.md', 'utf8').matchAll(/^\|\s*([A-Z_]+_CHECK)\s*\|\s*([^|\s]+)\s*\|/gm)].map((m) => `${m[1]} ${m[2]}`),
);
const result = await scan({
  input: 'src-main/shell',
  electronVersionOverride: electronVersion,
  isRelative: true,
  parserPlugins: [],
  customScan: [],
  excludeFromScan: [],
});
const low = 1;
const findings = result.issues.filter((issue) => issue.severity.value > low);
const seen = new Set(findings.map((issue) => `${issue.id} ${issue.file}`));
let failed = result.errors.length > 0;
for (const error of result.errors) console.error('scan error:', error);
for (const issue of findings) {
  const key = `${issue.id} ${issue.file}`;
  const ok = accepted.has(key);
  failed ||= !ok;
  console.log(`${ok ? 'accepted' : 'NEW     '} ${issue.severity.name}/${issue.confidence.name} ${issue.id} ${issue.file}:${issue.location.line}`);
}
for (const key of accepted) {
  if (!seen.has(key)) {
    failed = true;
    console.log(`STALE    docs/security.md accepts ${key}, which the scan no longer finds: remove the row`);
  }
}
console.log(failed ? 'electronegativity: findings above LOW not explained in docs/security.md' : `electronegativity: ${findings.length} finding(s) above LOW, each explained in docs/security.md`);
process.exit(failed ? 1 : 0);
