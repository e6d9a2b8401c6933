import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { moneySchema } from '../domain/money';
import { isoDateSchema, taskStateSchema } from '../domain/performance';

// What the contract page's performance tab reads from the replica: the contract's performance
// tasks as the server's feed last sent them (read-only here; fulfilment screens edit them).

export const contractTaskSchema = z.object({
  id: idSchema,
  planId: idSchema.nullable(),
  name: z.string(),
  state: taskStateSchema,
  /** yyyy-MM-dd; null for a task without a due date. */
  dueDate: isoDateSchema.nullable(),
  receivableAmount: moneySchema.nullable(),
  payableAmount: moneySchema.nullable(),
});
export type ContractTask = z.infer<typeof contractTaskSchema>;
