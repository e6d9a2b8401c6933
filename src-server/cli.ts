import { parseArgs } from 'node:util';
import { databaseFromEnvironment, fail, integerOption } from './cli-args';
import { defaultDataDir } from './db/database';
import { defaultHost, defaultPort, startContractServer } from './index';

// `npm run server -- [--port P] [--host H] [--data DIR]`; DATABASE_URL=postgres://… uses PostgreSQL.

const usage = `Usage: npm run server -- [--port ${defaultPort}] [--host ${defaultHost}] [--data ${defaultDataDir}] [--sync-snapshots on|off]
With DATABASE_URL=postgres://… it uses that PostgreSQL instead of the embedded PGlite in --data.
--sync-snapshots (default on): prepare each user's first sync in the background, as pages and as a replica image.`;

let values;
try {
  ({ values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, 'sync-snapshots': { type: 'string' }, help: { type: 'boolean' } },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const snapshots = values['sync-snapshots'] ?? 'on';
if (snapshots !== 'on' && snapshots !== 'off') fail(`--sync-snapshots must be on or off, got "${snapshots}"\n${usage}`);

const server = await startContractServer({
  port: integerOption('port', values.port, defaultPort, 0, 65535),
  host: values.host ?? defaultHost,
  ...databaseFromEnvironment(values.data),
  logger: true,
  syncSnapshots: snapshots === 'on',
});
console.log(`Contract server listening at ${server.url} (${server.database})`);

let stopping = false;
async function shutdown(signal: string) {
  // A second signal while closing means "now".
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`${signal}: closing the contract server …`);
  try {
    await server.close();
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
