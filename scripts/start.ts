import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../src-main/core/core';
import { appVersion, clientMigrationsDir, rendererDistDir, repoRoot, systemLocale } from '../src-main/paths';
import { startWebHost } from '../src-main/web-host/web-host';
import { defaultPort, seedDemoData } from '../src-server';
import { describeExit, startServerProcess, stopWithThisProcess } from './server-process';

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
  const server = await startServerProcess({ port: defaultPort, dataDir });
  stopWithThisProcess(server);
  void server.exited.then((exit) => console.log(`The local contract server (pid ${server.pid}) stopped (${describeExit(exit)}).`));
  console.log(`Local contract server at ${server.url}, pid ${server.pid} (demo users in the README; \`kill ${server.pid}\` stops it alone to try offline work)`);
  return server.url;
}

const electronPackage = join(repoRoot, 'node_modules', 'electron');

/** The Electron executable named by the electron package, if it is on disk. */
function installedElectron(): string | null {
  const pathFile = join(electronPackage, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const executable = join(electronPackage, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : null;
}

/**
 * The electron package fetches its binary on first use. Try that once, quietly: where it cannot be
 * downloaded (no internet, ELECTRON_SKIP_BINARY_DOWNLOAD) the caller says so in one line.
 */
function electronBinary(): string | null {
  const installed = installedElectron();
  if (installed || !existsSync(join(electronPackage, 'install.js'))) return installed;
  spawnSync(process.execPath, [join(electronPackage, 'install.js')], { stdio: 'ignore', timeout: 300_000 });
  return installedElectron();
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
