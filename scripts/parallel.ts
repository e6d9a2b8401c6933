import { spawn } from 'node:child_process';

// `tsx scripts/parallel.ts <script>…`: runs the named npm scripts at once (npm test's checks, so a
// two-core CI machine is busy on both cores), printing each one's output whole when it ends, so
// the logs do not interleave. Fails when any of them fails.

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: tsx scripts/parallel.ts <npm script>…');
  process.exit(2);
}

function run(name: string): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${name}: ${status === 0 ? 'passed' : `failed (${signal ?? `exit ${status}`})`} in ${seconds} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

const codes = await Promise.all(names.map(run));
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
