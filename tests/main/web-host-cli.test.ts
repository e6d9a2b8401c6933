import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src-main/paths';

// `npm run start:web` as a newcomer types it: a mistyped option or value gets one line naming it
// and the usage, exit code 2, and nothing starts.

async function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src-main/web-host/cli.ts'), ...args], { cwd: repoRoot });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('web host command line', () => {
  it('refuses an unknown option with its name and the usage, and starts nothing', async () => {
    const { code, stdout, stderr } = await run(['--prot', '5180']);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--prot'");
    expect(stderr).toContain('Usage: npm run start:web --');
    expect(stderr).not.toContain('    at ');
    expect(stdout).not.toContain('web host) at');
  });

  it('refuses a port that is no port, naming it', async () => {
    const { code, stderr } = await run(['--port', 'eighty']);
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be a number from 0 to 65535, not "eighty"');
  });

  it('prints its usage for --help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run start:web -- [--port 5180]');
  });
});
