const firstDelayMs = 500;
const maxDelayMs = 10_000;

/** Exponential backoff for reconnecting to the web host: 0.5 s, 1 s, 2 s, … capped at 10 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(maxDelayMs, firstDelayMs * 2 ** Math.max(0, attempt));
}
