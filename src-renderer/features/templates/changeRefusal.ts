import { ContractStatus } from '../../../src-shared/domain/enums';
import type { User } from '../../../src-shared/domain/user';
import { isEditableStatus } from '../../../src-shared/rules/contract-status';

// Why the signed-in user may not change or delete a template now, by the server's rules
// (src-server/contract-forms/templates.ts): only a draft or a rejected template changes, and
// only by its author or an administrator. The screen says this instead of offering the action.

export type ChangeRefusal = 'underApproval' | 'approved' | 'notYours';

export function changeRefusal(template: { status: ContractStatus; createdBy?: string | null | undefined }, user: Pick<User, 'id' | 'role'> | null): ChangeRefusal | null {
  if (!isEditableStatus(template.status)) return template.status === ContractStatus.UnderApproval ? 'underApproval' : 'approved';
  if (user && user.role !== 'admin' && template.createdBy !== undefined && template.createdBy !== user.id) return 'notYours';
  return null;
}
