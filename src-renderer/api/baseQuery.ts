import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { Bridge, ChannelName, ChannelRequest } from '../../src-shared/ipc/channels';
import { toAppError, type AppError } from '../../src-shared/errors';

/** One bridge invoke, as an RTK Query argument: the endpoints name channels, not URLs. */
export interface BridgeCall {
  channel: ChannelName;
  request: unknown;
}

/** The store's thunk extra argument: the bridge is injected, so the api never reaches for a global. */
export interface StoreExtra {
  bridge: Bridge;
}

export function call<C extends ChannelName>(channel: C, request: ChannelRequest<C>): BridgeCall {
  return { channel, request };
}

export const bridgeBaseQuery: BaseQueryFn<BridgeCall, unknown, AppError> = async ({ channel, request }, { extra }) => {
  const { bridge } = extra as StoreExtra;
  try {
    const result = await bridge.invoke(channel, request as never);
    return result.ok ? { data: result.data } : { error: result.error };
  } catch (cause) {
    // A bridge that throws instead of answering still yields an error value, never a hang.
    return { error: toAppError(cause) };
  }
};
