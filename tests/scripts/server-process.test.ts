import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../scripts/server-process';
import { tempDir } from '../support/temp';

// `npm start` runs the local contract server as a child process of its own, stopped with the app.

const dataDir = tempDir('contract-desk-server-process-');
afterAll(() => dataDir.cleanup());

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const health = (url: string) => fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false);

describe('the start script’s contract server process', () => {
  it('runs in a process of its own that answers health, and is gone once stopped', { timeout: 90_000 }, async () => {
    const server: ServerProcess = await startServerProcess({ dataDir: dataDir.path, port: await freePort() });
    expect(server.pid).not.toBe(process.pid);
    expect(alive(server.pid)).toBe(true);
    expect(await health(server.url)).toBe(true);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(alive(server.pid)).toBe(false);
    expect(await health(server.url)).toBe(false);
  });

  it('stops with the app: the parent’s SIGTERM takes the server down with it', { timeout: 90_000 }, async () => {
    const parent = spawn(process.execPath, ['--import', 'tsx', 'tests/scripts/server-process-parent.ts', dataDir.path, String(await freePort())], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const parentExit = new Promise((resolve) => parent.once('exit', resolve));
    const [line] = await createInterface({ input: parent.stdout })[Symbol.asyncIterator]().next().then((next) => [next.value as string]);
    const { pid, url } = JSON.parse(line!) as { pid: number; url: string };
    expect(pid).not.toBe(parent.pid);
    expect(await health(url)).toBe(true);
    parent.kill('SIGTERM');
    await parentExit;
    expect(alive(pid)).toBe(false);
    expect(await health(url)).toBe(false);
  });

  it('refuses to report ready when the server cannot start, naming its end', { timeout: 90_000 }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      await expect(startServerProcess({ dataDir: dataDir.path, port })).rejects.toThrow(/ended before it answered/);
    } finally {
      taken.close();
    }
  });
});
