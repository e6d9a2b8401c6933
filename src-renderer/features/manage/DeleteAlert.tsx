import { Alert } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import { showFailure, showNotice } from '../../app/toaster';
import { failureText } from './issues';

interface DeleteAlertProps {
  /** What is deleted, as the user knows it. */
  name: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
  /** After the server deleted it (e.g. leave the deleted thing's page). */
  onDeleted?(): void;
}

/** Asks before deleting; a refusal (offline at once, forbidden…) is shown and nothing changes. */
export function DeleteAlert({ name, onConfirm, onClose, onDeleted }: DeleteAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen
      intent="danger"
      icon="trash"
      cancelButtonText={t('manage.cancel')}
      confirmButtonText={t('manage.delete')}
      onCancel={onClose}
      onConfirm={() => {
        onClose();
        onConfirm().then(
          () => {
            showNotice(t('manage.done'));
            onDeleted?.();
          },
          (cause: unknown) => showFailure(failureText(t, cause as AppError | SerializedError)),
        );
      }}
    >
      {t('manage.confirmDelete', { name })}
    </Alert>
  );
}
