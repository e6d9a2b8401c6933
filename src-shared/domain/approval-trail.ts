import { z } from 'zod';
import { contractStatusSchema, idSchema } from './contract';

// A contract's approval trail (issue 29): every step taken on it (submit, approve, reject, archive)
// with who took it, their comment, when they took it (the device's time for a step taken offline)
// and when the server applied it. The server keeps it with the contract, so the feed brings it to
// the replica and the history tab shows it offline.

export const approvalTrailActions = ['submit', 'approve', 'reject', 'archive'] as const;

export const approvalTrailEntrySchema = z.object({
  action: z.enum(approvalTrailActions),
  fromStatus: contractStatusSchema.nullable(),
  toStatus: contractStatusSchema,
  userId: idSchema,
  userName: z.string(),
  comment: z.string().nullable(),
  /** When the user took the step: the device's clock for a step queued offline, else the server's. */
  takenAt: z.string(),
  /** When the server applied it. */
  appliedAt: z.string(),
});
export type ApprovalTrailEntry = z.infer<typeof approvalTrailEntrySchema>;

export const approvalTrailSchema = z.array(approvalTrailEntrySchema);
