import { Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FormMode } from '../../../src-shared/domain/enums';
import { useContractCooperationQuery } from '../../api/api';
import { errorText } from '../../i18n/errorText';
import { CooperationInfoTable } from '../contract-form/fields/complex';
import type { FormServices } from '../contract-form';

/**
 * The contract detail's cooperation information (spec 2): the other contracts with the same
 * counterparty, from the replica ('contract.cooperation'), in the form's mode.
 */
export function CooperationSection({ contractId, mode, services }: { contractId: string; mode: FormMode; services: FormServices }) {
  const { t } = useTranslation();
  const { data, error } = useContractCooperationQuery(contractId);
  if (error) {
    return (
      <Callout intent="warning" icon="warning-sign" title={t('contracts.cooperationLoadFailed')} data-testid="cooperation-error">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!data) return null;
  const statuses = t('contractStatus', { returnObjects: true });
  const rows = data.map((row) => ({ ...row, state: row.state === null ? statuses.missing : statuses[row.state] }));
  return (
    <CooperationInfoTable
      rows={rows}
      mode={mode}
      extraColumns={[
        { key: 'name', name: t('contracts.name') },
        { key: 'contractNumber', name: t('contracts.number') },
      ]}
      // A new tab, so the contract being edited here keeps its unsaved values.
      openRoute={(path) => services.openRoute(path, { newWindow: true })}
    />
  );
}
