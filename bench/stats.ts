import { loadavg } from 'node:os';
// Figures are printed one per line as `name: value unit`, so runs can be compared with diff.

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), n: sorted.length };
}

export function figure(name: string, value: number, unit: string, digits = 3): void {
  console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(digits)} ${unit}`);
}

/** The machine's load averages now (1, 5, 15 minutes), printed beside the figures of a shared machine. */
export function load(name: string): void {
  console.log(`${name}_load: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)`);
}

/** Times `run` over `iterations` after `warmup` untimed runs; milliseconds per run. */
export async function timeEach(iterations: number, warmup: number, run: (i: number) => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

/** A small deterministic PRNG (mulberry32) so every run measures the same data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
