import { z } from 'zod';
import { errorCodes, reasonSchema } from '../errors';

// Every REST response uses one envelope { code, message, data } (the spec's data.list, data.count,
// data.editors). Success has code 'ok'; a failure has an error code and data null.

export const okCode = 'ok' as const;

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(okCode), message: z.string(), data });
}

export const errorEnvelopeSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  /** null, except a stale write's 409 conflict, which carries the current row (If-Match). */
  data: z.unknown(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** Why, for the user: rendered from the reasons catalog in the user's language. */
  reason: reasonSchema.optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** A paged list as the spec returns it: data.list and data.count. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), count: z.number().int().nonnegative() });
}
