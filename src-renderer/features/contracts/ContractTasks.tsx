import { Callout, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { TaskState } from '../../../src-shared/domain/enums';
import { formatMoney } from '../../../src-shared/domain/money';
import type { Catalog } from '../../../src-shared/i18n/catalogs';
import { useContractTasksQuery } from '../../api/api';
import { errorText } from '../../i18n/errorText';
import { formatDay } from '../../i18n/format';

export const stateLabels: Record<TaskState, keyof Catalog['taskState']> = {
  [TaskState.NotStarted]: 'notStarted',
  [TaskState.InProgress]: 'inProgress',
  [TaskState.Overdue]: 'overdue',
  [TaskState.Success]: 'completed',
  [TaskState.Incomplete]: 'incomplete',
};

/** The contract page's performance tab: the contract's performance tasks from the replica, read-only. */
export function ContractTasks({ contractId }: { contractId: string }) {
  const { t, i18n } = useTranslation();
  const { data: tasks, error } = useContractTasksQuery(contractId);
  const missing = t('contractStatus.missing');
  if (error) {
    return (
      <Callout intent="warning" icon="warning-sign" title={t('contractPage.tasks.loadFailed')} data-testid="contract-tasks-error">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!tasks) return <Spinner size={20} />;
  if (tasks.length === 0) {
    return (
      <div data-testid="contract-tasks-none">
        <NonIdealState icon="calendar" title={t('contractPage.tasks.none')} />
      </div>
    );
  }
  return (
    <HTMLTable compact striped className="contract-page__table" data-testid="contract-tasks">
      <thead>
        <tr>
          <th>{t('contractPage.tasks.name')}</th>
          <th>{t('contractPage.tasks.state')}</th>
          <th>{t('contractPage.tasks.dueDate')}</th>
          <th className="ledger-table__amount">{t('contractPage.tasks.receivable')}</th>
          <th className="ledger-table__amount">{t('contractPage.tasks.payable')}</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={task.id} data-testid="contract-task">
            <td>{task.name}</td>
            <td>{t(`taskState.${stateLabels[task.state]}`)}</td>
            <td>{task.dueDate ? formatDay(task.dueDate, i18n.language) : missing}</td>
            <td className="ledger-table__amount">{task.receivableAmount ? formatMoney(task.receivableAmount) : missing}</td>
            <td className="ledger-table__amount">{task.payableAmount ? formatMoney(task.payableAmount) : missing}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
