// A shaped network link for the loopback proxy (tests/main/fault-proxy.ts): bandwidth from a
// token bucket shared by every connection going one way (a real link is shared), a one-way delay
// of half the round trip, and a share of connections cut part-way through their first answer.
// The sync benches and the poor-link tests run through it (issue 12).

export interface LinkShape {
  /** Bits per second each way. */
  bitsPerSecond: number;
  /** Round-trip time in milliseconds; each direction adds half. */
  rttMs: number;
  /** Share (0..1) of connections cut mid-response. */
  cutShare: number;
}

/** The link profiles of the sync bench; `loopback` is unshaped. */
export const linkProfiles = {
  loopback: null,
  office: { bitsPerSecond: 20_000_000, rttMs: 50, cutShare: 0 },
  poor: { bitsPerSecond: 2_000_000, rttMs: 150, cutShare: 0.01 },
} as const satisfies Record<string, LinkShape | null>;
export type LinkProfile = keyof typeof linkProfiles;

export const isLinkProfile = (name: string): name is LinkProfile => Object.prototype.hasOwnProperty.call(linkProfiles, name);

/** Bytes a bucket may save up while the link idles: what a burst sends at line rate. */
const burstBytes = 16 * 1024;

/**
 * A token bucket in virtual time: `free` is when the tokens spent so far are paid back. Sending n
 * bytes takes them from the bucket, so it finishes at max(free, now - burst) + n / rate.
 */
export class TokenBucket {
  private free = 0;

  constructor(
    private readonly bytesPerMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** When `bytes` handed over now have gone through the link. */
  take(bytes: number): number {
    const start = Math.max(this.free, this.now() - burstBytes / this.bytesPerMs);
    this.free = start + bytes / this.bytesPerMs;
    return Math.max(this.free, this.now());
  }
}

/** One direction of the link: a token bucket shared by the connections, and the propagation delay. */
export interface LinkDirection {
  /** When bytes handed over now arrive at the far end. */
  arrival(bytes: number): number;
}

export function linkDirection(shape: LinkShape, now: () => number = () => performance.now()): LinkDirection {
  const bucket = new TokenBucket(shape.bitsPerSecond / 8 / 1000, now);
  return { arrival: (bytes) => bucket.take(bytes) + shape.rttMs / 2 };
}

/** Chunks of one connection's direction, delivered in order, each at its arrival time. */
export class DelayLine {
  private readonly queue: { at: number; chunk: Buffer }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private queuedBytes = 0;
  private onDrained: (() => void) | null = null;

  constructor(
    private readonly deliver: (chunk: Buffer) => void,
    /** Called with true when the line holds more than `highWater` bytes, false once it drained below. */
    private readonly backpressure: (full: boolean) => void,
    private readonly highWater = 256 * 1024,
  ) {}

  push(at: number, chunk: Buffer): void {
    this.queue.push({ at, chunk });
    this.queuedBytes += chunk.length;
    if (this.queuedBytes > this.highWater) this.backpressure(true);
    this.pump();
  }

  /** Runs `callback` once every queued chunk is delivered (at once when none is). */
  whenDrained(callback: () => void): void {
    if (this.queue.length === 0) callback();
    else this.onDrained = callback;
  }

  clear(): void {
    this.onDrained = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }

  private pump(): void {
    if (this.timer !== null) return;
    const head = this.queue[0];
    if (!head) {
      const drained = this.onDrained;
      this.onDrained = null;
      drained?.();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = performance.now();
      while (this.queue.length > 0 && this.queue[0]!.at <= now + 1) {
        const { chunk } = this.queue.shift()!;
        const wasFull = this.queuedBytes > this.highWater;
        this.queuedBytes -= chunk.length;
        this.deliver(chunk);
        if (wasFull && this.queuedBytes <= this.highWater) this.backpressure(false);
      }
      this.pump();
    }, Math.max(0, head.at - performance.now()));
  }
}
