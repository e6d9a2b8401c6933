import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../src-main/paths';
import { apiPrefix } from '../src-shared/api/endpoint';

// The local contract server of `npm start`, run as a process of its own so a user can stop it
// alone (to try offline work) while the app keeps running.

export interface ServerProcess {
  url: string;
  pid: number;
  /** Settles once the server process has ended, however it ended. */
  exited: Promise<ServerExit>;
  /** Ends the server process (SIGTERM: it closes its database first). */
  stop(): Promise<ServerExit>;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcessOptions {
  dataDir: string;
  port: number;
  host?: string;
  /** How long the server may take to answer its health check. */
  readyTimeoutMs?: number;
}

const healthPollMs = 200;

/** Spawns `src-server/cli.ts` under tsx and resolves once `/api/v1/health` answers. */
export async function startServerProcess({ dataDir, port, host = '127.0.0.1', readyTimeoutMs = 60_000 }: ServerProcessOptions): Promise<ServerProcess> {
  // The start script's server keeps its data in dataDir: a DATABASE_URL meant for `npm run server` must not redirect it.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  // `node --import tsx` (not the tsx launcher) so the pid is the server itself and a signal reaches it directly.
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src-server', 'cli.ts'), '--port', String(port), '--host', host, '--data', dataDir], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<ServerExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://${host}:${port}`;
  try {
    await untilHealthy(url, child, exited, readyTimeoutMs);
  } catch (failure) {
    child.kill('SIGKILL');
    throw failure;
  }
  return {
    url,
    pid: child.pid!,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

async function untilHealthy(url: string, child: ChildProcess, exited: Promise<ServerExit>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended: ServerExit | null = null;
  void exited.then((exit) => (ended = exit));
  while (Date.now() < deadline) {
    if (ended) throw new Error(`The contract server process ${child.pid} ended before it answered (${describeExit(ended)}).`);
    const healthy = await fetch(`${url}${apiPrefix}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, healthPollMs));
  }
  throw new Error(`The contract server process ${child.pid} did not answer ${url}${apiPrefix}/health within ${timeoutMs / 1000} s.`);
}

export function describeExit({ code, signal }: ServerExit): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

/**
 * Stops the server with the app: on SIGINT/SIGTERM (then exits) and on any exit of this process.
 * Killing is synchronous, so it also works from the 'exit' event.
 */
export function stopWithThisProcess(server: ServerProcess): void {
  const kill = () => void server.stop();
  process.once('exit', kill);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      kill();
      void server.exited.then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}
