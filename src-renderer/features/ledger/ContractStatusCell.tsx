import { Colors } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ContractStatus } from '../../../src-shared/domain/enums';

const dotColors: Record<ContractStatus, string> = {
  1: Colors.BLUE3,
  2: Colors.ORANGE3,
  3: Colors.RED3,
  4: Colors.GREEN3,
  5: Colors.GRAY3,
};

/** Spec 4: a coloured dot per status with its label; '--' where the status is missing. */
export function ContractStatusCell({ status }: { status: ContractStatus | null }) {
  const { t } = useTranslation();
  if (status === null) {
    return (
      <span data-testid="contract-status" data-status="none">
        {t('contractStatus.missing')}
      </span>
    );
  }
  return (
    <span data-testid="contract-status" data-status={status}>
      <span className="contract-status__dot" style={{ backgroundColor: dotColors[status] }} aria-hidden />
      {t('contractStatus', { returnObjects: true })[status]}
    </span>
  );
}
