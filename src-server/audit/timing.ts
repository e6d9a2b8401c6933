// How long a sync push spends on its audit trail (the rows read before and after each mutation,
// the events built, hashed and appended), for the push-drain bench: issue 32 bounds the trail's
// cost on the 1,000-edit drain. Nothing in the server listens; the trail is written either way.

/** Hears each audit step's milliseconds when set (bench/push-drain.bench.ts sets it). */
export const auditTimer: { spent?: (milliseconds: number) => void } = {};

/** Runs one audit step of a push, telling the timer its time. */
export async function auditStep<T>(step: () => Promise<T> | T): Promise<T> {
  const spent = auditTimer.spent;
  if (!spent) return step();
  const start = performance.now();
  try {
    return await step();
  } finally {
    spent(performance.now() - start);
  }
}
