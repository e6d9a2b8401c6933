import { Alert } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** The confirmation before a refused draft or edit is discarded, as the contract page and the sync panel both ask it. */
export function RefusalDiscardAlert({ kind, isOpen, loading, onCancel, onConfirm }: { kind: 'create' | 'update'; isOpen: boolean; loading: boolean; onCancel(): void; onConfirm(): void }) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={isOpen}
      intent="danger"
      icon="trash"
      cancelButtonText={t('contracts.cancel')}
      confirmButtonText={t(`contractPage.refusal.${kind}Discard`)}
      loading={loading}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p data-testid="contract-refusal-confirm">{t(`contractPage.refusal.${kind}DiscardConfirm`)}</p>
    </Alert>
  );
}
