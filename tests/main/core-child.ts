import { openKeptReplica } from '../support/replica-file';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../src-main/paths';
import type { ChannelName, ChannelRequest, ChannelResponse, IpcResult, SyncStatus } from '../../src-shared/ipc/channels';
import { waitFor } from '../support/core';

/** The main core in a child process (fault-core-child.ts), so a test can kill it with SIGKILL at any moment. */
export class CoreChild {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (result: IpcResult<unknown>) => void>();
  private next = 0;
  status: SyncStatus | null = null;
  readonly exited: Promise<void>;

  constructor(readonly dataDir: string, serverUrl: string, pullPageSize = 1000) {
    this.child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'tests/main/fault-core-child.ts'), dataDir, serverUrl], {
      cwd: repoRoot,
      env: { ...process.env, PULL_PAGE_SIZE: String(pullPageSize) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { n?: number; result?: IpcResult<unknown>; status?: SyncStatus };
      if (message.status) this.status = message.status;
      if (message.n !== undefined) this.pending.get(message.n)?.(message.result!);
    });
  }

  /** A channel's answer as a value (an error included). */
  invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>): Promise<IpcResult<ChannelResponse<C>>> {
    const n = (this.next += 1);
    return new Promise<IpcResult<ChannelResponse<C>>>((resolve) => {
      this.pending.set(n, resolve as (result: IpcResult<unknown>) => void);
      this.child.stdin!.write(`${JSON.stringify({ n, channel, request })}\n`);
    });
  }

  async call<C extends ChannelName>(channel: C, request: ChannelRequest<C>): Promise<ChannelResponse<C>> {
    const result = await this.invoke(channel, request);
    if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
    return result.data;
  }

  /** Waits until the queue is empty and a round has ended well. */
  drained(timeoutMs = 90_000) {
    return waitFor(async () => {
      const status = await this.call('sync.status', {});
      return status.queued === 0 && status.phase === 'idle' && status.error === null ? status : undefined;
    }, timeoutMs);
  }

  async kill9() {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop() {
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** The replica file of the one user signed in under `dataDir`. */
export function replicaFile(dataDir: string): string {
  const dir = join(dataDir, 'replicas');
  return join(dir, readdirSync(dir).find((f) => f.endsWith('.sqlite'))!);
}

/** How many mutations the (stopped) core's replica still has queued. */
export function pendingIn(dataDir: string): number {
  const replica = openKeptReplica(replicaFile(dataDir), { readonly: true });
  const n = replica.prepare("select count(*) from outbox where state = 'pending'").pluck().get() as number;
  replica.close();
  return n;
}
