import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../src-main/core/core';
import { appVersion, clientMigrationsDir, rendererDistDir, repoRoot, systemLocale } from '../src-main/paths';
import { startWebHost } from '../src-main/web-host/web-host';
import { seedDemoData, startContractServer } from '../src-server';

// `npm start`: the desktop app against a contract server. Without CONTRACT_SERVER_URL (or
// --server) it runs a local server with demo data itself. Where the Electron binary is not
// installed it says so in one line and serves the web host instead.

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.CONTRACT_SERVER_URL },
    port: { type: 'string', default: process.env.PORT ?? '5180' },
    'demo-contracts': { type: 'string', default: '2000' },
  },
});

async function contractServerUrl(): Promise<string> {
  if (values.server) return values.server;
  const dataDir = join(repoRoot, '.data', 'server');
  if (!existsSync(dataDir)) {
    const contracts = Number(values['demo-contracts']);
    console.log(`Seeding a local contract server with ${contracts} demo contracts in ${dataDir} …`);
    await seedDemoData({ contracts, seed: 1, dataDir });
  }
  const server = await startContractServer({ port: 8787, dataDir });
  console.log(`Local contract server at ${server.url} (demo users in the README)`);
  return server.url;
}

function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const serverUrl = await contractServerUrl();
const electron = electronBinary();
if (electron) {
  const child = spawn(electron, [repoRoot], { stdio: 'inherit', env: { ...process.env, CONTRACT_SERVER_URL: serverUrl } });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const core = createCore({
    dataDir: join(repoRoot, '.data', 'desktop'),
    migrationsDir: clientMigrationsDir,
    host: 'web',
    version: appVersion,
    systemLocale: systemLocale(),
    serverUrl,
  });
  const host = await startWebHost({ core, rendererDir: rendererDistDir, port: Number(values.port) });
  console.log(`The Electron binary is not installed here, so the app runs in your browser instead: open ${host.url}`);
}
