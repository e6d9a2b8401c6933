import type { z } from 'zod';
import { AppFailure, appErrorSchema, defaultErrorMessages, toAppError, validationFailure } from '../../../src-shared/errors';
import { channels, isChannelName, type ChannelName, type ChannelResponse, type Channels, type IpcResult } from '../../../src-shared/ipc/channels';
import type { Logger } from '../ports';

/** A handler per channel: it gets the validated request and returns the response. */
export type ChannelHandlers = {
  [C in ChannelName]: (request: z.output<Channels[C]['request']>) => ChannelResponse<C> | Promise<ChannelResponse<C>>;
};

/** A refusal a handler means to give (an AppFailure or an error value), as opposed to a fault. */
const isExpected = (cause: unknown) => cause instanceof AppFailure || appErrorSchema.safeParse(cause).success;

/**
 * The single entry of every IPC call, whichever host carried it. Unknown channels and requests
 * that fail their schema are refused before any handler runs; every failure returns as a value.
 * A fault (anything but an expected refusal) goes back as 'internal', its details to the log
 * only, under the channel's name: here once for every channel, not in each handler.
 */
export function createDispatcher(handlers: ChannelHandlers, logger: Logger) {
  return async function dispatch(channel: unknown, request: unknown): Promise<IpcResult<unknown>> {
    if (!isChannelName(channel)) {
      return { ok: false, error: { code: 'unknown_channel', message: `${defaultErrorMessages.unknown_channel} (${String(channel).slice(0, 128)})` } };
    }
    const parsed = (channels[channel].request as z.ZodType).safeParse(request ?? {});
    if (!parsed.success) return { ok: false, error: validationFailure(parsed.error).error };
    try {
      const handler = handlers[channel] as (request: unknown) => unknown;
      return { ok: true, data: await handler(parsed.data) };
    } catch (cause) {
      if (!isExpected(cause)) logger.error(`${channel} failed`, cause instanceof Error ? (cause.stack ?? cause.message) : String(cause));
      return { ok: false, error: toAppError(cause) };
    }
  };
}
export type Dispatch = ReturnType<typeof createDispatcher>;
