import { z } from 'zod';
import { idSchema } from '../domain/contract';
import { apiPrefix, endpoint, none, trimmed, type Endpoint } from './endpoint';

// Counterparty scoring of a contract (spec 2 "Counterparty scoring dialog", spec 3 "Score
// detail"). Both paths are defined here: the spec names none.

const criterionSchema = z.object({
  id: idSchema,
  name: z.string(),
  criterion: z.string(),
  maxScore: z.number().int(),
  actualScore: z.number().int().nullable(),
});

export const scoreDetailSchema = z.object({
  contractId: idSchema,
  counterpartyId: idSchema,
  counterpartyName: z.string(),
  comment: z.string(),
  /** Null until the contract is scored. */
  totalScore: z.number().int().nullable(),
  maxTotalScore: z.number().int(),
  updateTime: z.string().nullable(),
  version: z.number().int().nullable(),
  resultItems: z.array(z.object({ id: idSchema, name: z.string(), children: z.array(criterionSchema) })),
});
export type ScoreDetail = z.infer<typeof scoreDetailSchema>;

/**
 * The dialog sends back what it loaded with the actual scores filled in; only ids and scores
 * are read. Scores are checked per criterion on the server with the spec's messages.
 */
export const scoreSubmitSchema = z
  .object({
    comment: trimmed(2000).default(''),
    version: z.number().int().min(1).optional(),
    resultItems: z
      .array(
        z
          .object({
            id: idSchema,
            name: z.string().max(200).optional(),
            children: z
              .array(
                z
                  .object({
                    id: idSchema,
                    name: z.string().max(200).optional(),
                    criterion: z.string().max(2000).optional(),
                    maxScore: z.number().optional(),
                    actualScore: z.union([z.number(), z.string().max(1000), z.null()]).optional(),
                  })
                  .strict(),
              )
              .max(200),
          })
          .strict(),
      )
      .max(50),
  })
  .strict();

const contractParams = z.object({ id: idSchema }).strict();

export const scoringEndpoints = {
  scoreDetail: endpoint({
    method: 'GET', path: `${apiPrefix}/contracts/:id/score_detail`, auth: true, params: contractParams, query: none, body: none,
    response: scoreDetailSchema,
  }),
  scoreSubmit: endpoint({
    method: 'PUT', path: `${apiPrefix}/contracts/:id/score_detail`, auth: true, params: contractParams, query: none, body: scoreSubmitSchema,
    /** `message` is the spec's 'operation successful!'. */
    response: z.object({ message: z.string(), detail: scoreDetailSchema }),
  }),
} as const satisfies Record<string, Endpoint>;
