import { Button, Dialog, DialogBody, DialogFooter, FormGroup, TextArea, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContractStatus } from '../../../src-shared/domain/enums';
import { toAppError } from '../../../src-shared/errors';
import type { ReplicaContractDetail } from '../../../src-shared/ipc/drafting';
import { allowedSteps, approvalCommentMax, type ApprovalStep, type ApprovalSubject } from '../../../src-shared/rules/contract-status';
import { useApprovalStepMutation, useSessionQuery } from '../../api/api';
import { showFailure, showNotice } from '../../app/toaster';
import { errorTextWithDetail } from '../../i18n/errorText';

const looks: Record<ApprovalStep, { icon: IconName; intent: Intent }> = {
  submit: { icon: 'send-message', intent: 'primary' },
  approve: { icon: 'tick-circle', intent: 'success' },
  reject: { icon: 'cross-circle', intent: 'danger' },
};

export interface ApprovalActionsProps {
  subject: ApprovalSubject;
  /** The name the confirmation names. */
  name: string;
  status: ContractStatus | null;
  /** Takes the step: resolves once the core queued it (a contract) or the server took it (a template). */
  take(action: ApprovalStep, comment: string | undefined): Promise<unknown>;
  /** The toast once `take` resolves. */
  doneText(action: ApprovalStep): string;
}

function ConfirmStep({ action, name, onClose, take, doneText }: Pick<ApprovalActionsProps, 'name' | 'take' | 'doneText'> & { action: ApprovalStep; onClose(): void }) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const tooLong = comment.trim().length > approvalCommentMax;

  const confirm = async () => {
    setBusy(true);
    try {
      await take(action, comment.trim() === '' ? undefined : comment.trim());
      showNotice(doneText(action));
    } catch (cause) {
      showFailure(errorTextWithDetail(t, toAppError(cause)));
    }
    setBusy(false);
    onClose();
  };

  return (
    <Dialog isOpen onClose={busy ? undefined : onClose} title={t(`approval.actions.${action}`)} style={{ width: 450 }}>
      <DialogBody>
        <p data-testid="approval-confirm" data-action={action}>
          {t(`approval.confirm.${action}`, { name })}
        </p>
        {/* Every step keeps its comment in the approval trail (an approver's opinion included). */}
        <FormGroup
          label={t('approval.comment')}
          labelFor="approval-comment"
          intent={tooLong ? 'danger' : 'none'}
          helperText={tooLong ? t('approval.commentTooLong', { max: approvalCommentMax }) : t('approval.commentLength', { count: comment.trim().length, max: approvalCommentMax })}
        >
          <TextArea
            id="approval-comment"
            data-testid="approval-comment"
            fill
            autoResize
            rows={3}
            intent={tooLong ? 'danger' : 'none'}
            placeholder={t(`approval.commentPlaceholder.${action}`)}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('approval.cancel')} disabled={busy} onClick={onClose} />
            <Button
              intent={looks[action].intent}
              icon={looks[action].icon}
              data-testid="approval-confirm-button"
              loading={busy}
              disabled={tooLong}
              text={t(`approval.actions.${action}`)}
              onClick={() => void confirm()}
            />
          </>
        }
      />
    </Dialog>
  );
}

/**
 * Submit, approve and reject (spec 4), offered only where the shared rules allow them for this
 * user and status, each after a confirmation with an optional comment.
 */
export function ApprovalActions({ subject, name, status, take, doneText }: ApprovalActionsProps) {
  const { t } = useTranslation();
  const { data: session } = useSessionQuery();
  const [confirming, setConfirming] = useState<ApprovalStep | null>(null);
  if (!session?.signedIn) return null;
  const steps = allowedSteps(subject, status, session.user.role);
  return (
    <>
      {steps.map((action) => (
        <Button key={action} icon={looks[action].icon} intent={looks[action].intent} data-testid={`approval-${action}`} text={t(`approval.actions.${action}`)} onClick={() => setConfirming(action)} />
      ))}
      {confirming && <ConfirmStep key={confirming} action={confirming} name={name} take={take} doneText={doneText} onClose={() => setConfirming(null)} />}
    </>
  );
}

/**
 * A contract's steps on its page: queued in the core like every edit (the page shows 'waiting to
 * sync' until the server decides), so they work offline; the server checks them when it applies them.
 */
export function ContractApprovalActions({ contract }: { contract: ReplicaContractDetail }) {
  const { t } = useTranslation();
  const [approvalStep] = useApprovalStepMutation();
  return (
    <ApprovalActions
      subject="contract"
      name={contract.name}
      status={contract.status}
      take={(action, comment) => approvalStep({ id: contract.id, action, ...(comment !== undefined && { comment }) }).unwrap()}
      doneText={(action) => t(`approval.queued.${action}`)}
    />
  );
}
