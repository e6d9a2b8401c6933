import { createCore, type Core, type CoreOptions } from '../../src-main/core/core';
import { clientMigrationsDir } from '../../src-main/paths';
import type { ChannelName, ChannelRequest, ChannelResponse } from '../../src-shared/ipc/channels';

export const quietLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function testCore(dataDir: string, options: Partial<CoreOptions> = {}): Core {
  return createCore({
    dataDir,
    migrationsDir: clientMigrationsDir,
    host: 'web',
    version: 'test',
    systemLocale: 'en-US',
    logger: quietLogger,
    ...options,
  });
}

/** Calls a channel and returns its data, failing the test with the error value otherwise. */
export async function call<C extends ChannelName>(core: Core, channel: C, request: ChannelRequest<C>): Promise<ChannelResponse<C>> {
  const result = await core.invoke(channel, request);
  if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
  return result.data as ChannelResponse<C>;
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until a pull has finished (or failed) and returns the status. */
export function settledSync(core: Core, timeoutMs?: number) {
  return waitFor(async () => {
    const status = await call(core, 'sync.status', {});
    return status.phase !== 'pulling' && status.phase !== 'pushing' && status.lastSyncAt !== null ? status : undefined;
  }, timeoutMs);
}
