import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeSchema } from '../../src-shared/api/envelope';
import { endpoints } from '../../src-shared/api/endpoints';
import { demoUsers, seedDemoData, startContractServer } from '../../src-server/index';
import { backends, postgresSkipMessage, type Scratch } from './support';

// The entry points as a newcomer uses them: the seed and server command lines over real HTTP.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// As `npm run server` runs it: node with tsx's loader, so the pid is the server's own. Under the tsx
// launcher a SIGTERM is relayed, and a child that does not answer the relay within 30 ms (a busy
// machine) is killed with SIGKILL, never closing its database.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const node = (script: string, args: string[]) => [process.execPath, ['--import', tsxLoader, path.join(repoRoot, script), ...args]] as const;
const alice = demoUsers.find((u) => u.username === 'alice')!;

function environment(scratch: Scratch): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return 'databaseUrl' in scratch.options ? { ...env, DATABASE_URL: scratch.options.databaseUrl } : env;
}

function dataArgs(scratch: Scratch): string[] {
  return 'dataDir' in scratch.options ? ['--data', scratch.options.dataDir] : [];
}

async function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  // From another directory, to prove the migrations are found from anywhere.
  const child = spawn(...node(script, args), { cwd: '/', env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

async function signInOver(url: string) {
  const response = await fetch(`${url}${endpoints.login.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: alice.username, password: alice.password }),
  });
  return envelopeSchema(endpoints.login.response).parse(await response.json()).data;
}

for (const backend of backends) {
  describe(`command lines [${backend.kind}]`, () => {
    if (!backend.available) {
      it.skip(postgresSkipMessage);
      return;
    }
    let scratch: Scratch;
    beforeAll(async () => {
      scratch = await backend.create();
    });
    afterAll(() => scratch.remove());

    it('seed refuses a bad option with a message naming it, and seeds with good ones', async () => {
      const bad = await run('src-server/seed/cli.ts', ['--contracts', 'many', ...dataArgs(scratch)], environment(scratch));
      expect(bad.code).toBe(2);
      expect(bad.output).toContain('--contracts must be a whole number');
      const good = await run('src-server/seed/cli.ts', ['--contracts', '120', '--seed', '3', ...dataArgs(scratch)], environment(scratch));
      expect(good.output).toMatch(/Seeded 120 contracts, 500 counterparties, 30 users and 8 departments \(seed 3\)/);
      expect(good.code).toBe(0);
      // Two node processes with tsx and a seeded PGlite: well over 30 s on a busy CI machine.
    }, 120_000);

    it('server refuses a --sync-snapshots that is neither on nor off, naming it, and starts nothing', async () => {
      const bad = await run('src-server/cli.ts', ['--port', '0', '--sync-snapshots', 'maybe', ...dataArgs(scratch)], environment(scratch));
      expect(bad.code).toBe(2);
      expect(bad.output).toContain('--sync-snapshots must be on or off, got "maybe"');
      expect(bad.output).not.toContain('listening');
    });

    it('server starts on the seeded database, prints its URL, serves, and stops cleanly on SIGTERM', async () => {
      const child = spawn(...node('src-server/cli.ts', ['--port', '0', ...dataArgs(scratch)]), {
        cwd: '/',
        env: environment(scratch),
      });
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Contract server listening at (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', () => reject(new Error(`the server exited early:\n${output}`)));
      });
      try {
        const session = await signInOver(url);
        const list = await fetch(`${url}${endpoints.contractList.path}?pageSize=5`, { headers: { authorization: `Bearer ${session.token}` } });
        expect(envelopeSchema(endpoints.contractList.response).parse(await list.json()).data.list).toHaveLength(5);
      } finally {
        child.kill('SIGTERM');
      }
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(output).toContain('SIGTERM: closing the contract server');
      expect(code).toBe(0);
    });

    it('the programmatic API seeds, starts on a random port and closes', async () => {
      await seedDemoData({ contracts: 30, seed: 8, ...scratch.options });
      const server = await startContractServer({ port: 0, ...scratch.options });
      try {
        expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect((await signInOver(server.url)).user.username).toBe('alice');
      } finally {
        await server.close();
      }
      await expect(fetch(`${server.url}${endpoints.health.path}`)).rejects.toThrow();
    });
  });
}
