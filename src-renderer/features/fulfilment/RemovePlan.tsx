import { Alert, Button } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaskState } from '../../../src-shared/domain/enums';
import type { PlanSheet } from '../../../src-shared/ipc/fulfilment';
import { useDeletePlanMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';

// Removing a plan with its rows (issue 28 item 2), where the server allows it: no row finished
// (restore those first). A destructive action, so it asks first; queued offline like every plan edit.

export function RemovePlan({ plan }: { plan: PlanSheet }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [deletePlan] = useDeletePlanMutation();
  const failed = useActionFailure();
  const finished = plan.tasks.some((task) => task.state === TaskState.Success);
  return (
    <>
      <Button
        small
        minimal
        intent="danger"
        icon="trash"
        data-testid="plan-remove"
        disabled={finished}
        title={finished ? t('planCreate.removeFinished') : t('planCreate.remove')}
        text={t('planCreate.remove')}
        onClick={() => setConfirming(true)}
      />
      <Alert
        isOpen={confirming}
        intent="danger"
        icon="trash"
        confirmButtonText={t('planCreate.remove')}
        cancelButtonText={t('fulfilment.cancel')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          deletePlan({ performanceId: plan.performanceId, planId: plan.id, taskIds: plan.tasks.map((task) => task.id) })
            .unwrap()
            .then(() => showNotice(t('fulfilment.deleted')), failed);
        }}
      >
        <p data-testid="plan-remove-confirm">{t('planCreate.removeConfirm', { name: plan.performanceName, count: plan.tasks.length })}</p>
      </Alert>
    </>
  );
}
