import { createInterface } from 'node:readline';
import { testCore } from '../support/core';

// The main core in a child process for the fault tests, so it can be killed with SIGKILL at any
// moment. Lines of JSON on stdin are IPC calls ({n, channel, request}); stdout carries their
// answers ({n, result}) and every sync status the core announces ({status}).

const [dataDir, serverUrl] = process.argv.slice(2);
const core = testCore(dataDir!, {
  serverUrl,
  syncSoonMs: 50,
  connectivityProbeMs: 200,
  syncBackoffMs: 100,
  pullPageSize: Number(process.env.PULL_PAGE_SIZE ?? 1000),
});
const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
core.subscribe((event, payload) => {
  if (event === 'sync.statusChanged') write({ status: payload });
});
createInterface({ input: process.stdin }).on('line', (line) => {
  const { n, channel, request } = JSON.parse(line) as { n: number; channel: string; request: unknown };
  void core.invoke(channel, request).then((result) => write({ n, result }));
});
write({ ready: true });
