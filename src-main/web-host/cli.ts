import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { serverUrlSchema } from '../../src-shared/ipc/channels';
import { createCore } from '../core/core';
import { appVersion, clientMigrationsDir, rendererDistDir, repoRoot, systemLocale } from '../paths';
import { startWebHost } from './web-host';

const defaults = { port: '5180', host: '127.0.0.1', data: resolve(repoRoot, '.data', 'desktop') };
const usage = `Usage: npm run start:web -- [--port ${defaults.port}] [--host ${defaults.host}] [--server URL] [--data ${defaults.data}]`;

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: defaults.port },
      host: { type: 'string', default: defaults.host },
      server: { type: 'string' },
      data: { type: 'string', default: defaults.data },
      help: { type: 'boolean' },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a number from 0 to 65535, not "${values.port}"`);
  process.exit(2);
}

const serverUrl = values.server === undefined ? undefined : serverUrlSchema.safeParse(values.server);
if (serverUrl && !serverUrl.success) {
  console.error(`--server: ${serverUrl.error.issues[0]?.message}`);
  process.exit(2);
}

const core = createCore({
  dataDir: resolve(values.data),
  migrationsDir: clientMigrationsDir,
  host: 'web',
  version: appVersion,
  systemLocale: systemLocale(),
  serverUrl: serverUrl?.data,
  organizationShare: process.env.CONTRACT_DESK_ORGANIZATION_SHARE === '1',
  // No native notifier: due reminders go to the pages' in-app list and browser notifications.
});
const host = await startWebHost({ core, rendererDir: rendererDistDir, port, host: values.host });
console.log(`Contract Desk (web host) at ${host.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await host.close();
    await core.close();
    process.exit(0);
  });
}
