import { z } from 'zod';
import { appErrorSchema } from '../errors';

// The frames that carry the channel map over a WebSocket (web host). Electron IPC carries the
// same `invoke` request and `IpcResult` answer natively.

export const ipcResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: appErrorSchema }),
]);

/** The id a frame's answer carries back. */
export const frameIdSchema = z.object({ id: z.number().int().nonnegative() });

export const clientFrameSchema = z.object({
  type: z.literal('invoke'),
  id: frameIdSchema.shape.id,
  channel: z.string().max(128),
  request: z.unknown(),
});
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export const hostFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: z.number().int().nonnegative(), result: ipcResultSchema }),
  z.object({ type: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type HostFrame = z.infer<typeof hostFrameSchema>;

/** The path the web host serves its WebSocket on. */
export const webHostSocketPath = '/ipc';

/**
 * The web host's launch key: made anew at each start, written into the pages it serves (a meta
 * tag of this name) and required on its socket (a query parameter of this name), so only its own
 * pages can drive the core.
 */
export const webHostKeyName = 'contract-desk-key';
