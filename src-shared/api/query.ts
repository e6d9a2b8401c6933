import { z } from 'zod';

// Query-string helpers shared by several feature maps (query values arrive as text).

/** A page size with its own default and ceiling. */
export const pageSizeParam = (defaultSize: number, max = 100) => z.coerce.number().int().min(1).max(max).default(defaultSize);

/** Ids given as `a,b,c` or as a repeated parameter (`?id=a&id=b`), at most `max`. */
export const idListParam = (max = 100, item: z.ZodString = z.string().uuid()) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : value),
    z.array(item).max(max),
  );

/** "true"/"false" (or 1/0) in a query string; z.coerce.boolean would read "false" as true. */
export const booleanParam = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
