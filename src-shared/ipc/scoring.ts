import { z } from 'zod';
import { contractIdSchema } from '../domain/contract';
import { scoreDetailSchema, scoreSubmitSchema } from '../api/scoring';
import { cachedAnswerSchema } from './cached-reads';

// The counterparty scoring dialog through the core (issue 30): the score detail is a kept read,
// "as of" its time offline, with the user's own queued scores on it; a score saved while the
// server is away (or for a contract it does not know yet) is queued as 'contract.score'.

export const scoreDetailRequestSchema = z.object({ contractId: contractIdSchema }).strict();

export const scoreDetailAnswerSchema = cachedAnswerSchema(scoreDetailSchema).extend({
  /** The scores and comment shown are the user's own, queued on this device and not yet applied by the server. */
  queued: z.boolean(),
});
export type ScoreDetailAnswer = z.infer<typeof scoreDetailAnswerSchema>;

export const scoreSaveRequestSchema = z.object({ contractId: contractIdSchema, body: scoreSubmitSchema }).strict();

export const scoreSaveAnswerSchema = z.object({
  /** Queued to sync (offline, or the contract is not on the server yet) rather than saved on the server now. */
  queued: z.boolean(),
});
