import { z } from 'zod';
import { contractStatuses, type ContractStatus } from './enums';
import { moneySchema } from './money';

export const contractStatusSchema = z.union(
  contractStatuses.map((s) => z.literal(s)) as [z.ZodLiteral<ContractStatus>, ...z.ZodLiteral<ContractStatus>[]],
);

/** Ids are client-generatable UUIDs so that a contract drafted offline never needs an id remap. */
export const idSchema = z.string().min(1).max(64);

/**
 * The id of a contract a write names: the server makes every contract id a UUID (and the desktop
 * its drafts'), so anything else names no contract and is refused before it is queued or stored.
 */
export const contractIdSchema = z.string().uuid();

/** A contract as the ledger and the replica know it. `status` may be missing (shown as '--'). */
export const contractSchema = z.object({
  id: idSchema,
  name: z.string(),
  contractNumber: z.string().nullable(),
  status: contractStatusSchema.nullable(),
  contractTypeName: z.string().nullable(),
  templateName: z.string().nullable(),
  counterpartName: z.string().nullable(),
  amount: moneySchema.nullable(),
  responsibleUserId: idSchema.nullable(),
  responsibleUserName: z.string().nullable(),
  departmentId: idSchema.nullable(),
  departmentName: z.string().nullable(),
  signDate: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
  version: z.number().int().nonnegative(),
});
export type Contract = z.infer<typeof contractSchema>;

/** Header-tab counts (spec 3, "Contract statistics"). */
export const contractStatisticsSchema = z.object({
  total: z.number().int().nonnegative(),
  draft: z.number().int().nonnegative(),
  underApproval: z.number().int().nonnegative(),
  approvalRejected: z.number().int().nonnegative(),
  approved: z.number().int().nonnegative(),
  archived: z.number().int().nonnegative(),
});
export type ContractStatistics = z.infer<typeof contractStatisticsSchema>;
