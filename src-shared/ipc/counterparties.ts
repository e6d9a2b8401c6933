import { z } from 'zod';
import { pageSchema } from '../api/envelope';
import { counterpartyListRowSchema, partyTypeSchema } from '../api/counterparties';
import { moneySchema } from '../domain/money';
import { cachedAnswerSchema } from './cached-reads';

// The counterparty lists (issue 15): the server's page while online; offline, the kept
// counterparties (the party pickers' store) searched and paged here, "as of" when they were read.

export const counterpartyListRequestSchema = z
  .object({
    type: partyTypeSchema,
    q: z.string().trim().max(100).default(''),
    pageNum: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
  })
  .strict();

/** A list row; offline, a party the pickers kept without its list row shows who it is and no figures (null). */
export const counterpartyRowSchema = counterpartyListRowSchema.extend({
  subtype: counterpartyListRowSchema.shape.subtype.nullable(),
  rating: counterpartyListRowSchema.shape.rating.nullable(),
  updateTime: z.string().nullable(),
  cooperationCount: z.number().int().nullable(),
  totalAmount: z.array(moneySchema).nullable(),
  riskCount: z.number().int().nullable(),
});
export type CounterpartyRow = z.infer<typeof counterpartyRowSchema>;

export const counterpartyListAnswerSchema = cachedAnswerSchema(pageSchema(counterpartyRowSchema));
