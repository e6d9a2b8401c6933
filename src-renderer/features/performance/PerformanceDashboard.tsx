import { useState } from 'react';
import { Button, Callout, Card, HTMLTable, Menu, MenuItem, NonIdealState, Popover, SegmentedControl, Spinner, Tag } from '@blueprintjs/core';
import { DateTime } from 'luxon';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { formatMoney } from '../../../src-shared/domain/money';
import type { TaskStatistics } from '../../../src-shared/domain/performance';
import type { BoardDay, BoardTask } from '../../../src-shared/ipc/dashboard';
import { boardRange, taskRoute, type BoardView } from '../../../src-shared/rules/dashboard';
import { organisationDay, organisationZone } from '../../../src-shared/rules/performance';
import { isFinishable } from '../../../src-shared/rules/fulfilment';
import { showFailure, showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { DateInput } from '../../i18n/DateInput';
import { errorText } from '../../i18n/errorText';
import { formatDay } from '../../i18n/format';
import { stateLabels } from '../fulfilment/taskStateLabels';
import { TaskRefusalNote, useTaskActions, type TaskActions } from '../fulfilment/TaskActions';
import { openRoute } from '../contracts/openRoute';
import { useBridgeFormServices } from '../contracts/useBridgeFormServices';
import { boardCalendar, downloadCalendar } from './boardCalendar';
import { performanceApi, useTaskBoardQuery, useTaskStatisticsQuery } from './performanceApi';
import { useAppDispatch } from '../../app/hooks';
import { QuickTaskButton } from './QuickTaskDialog';
import { ReminderSettingsDialog } from './ReminderSettingsDialog';
import { RiskReminderList } from '../credit/RiskReminderList';
import './dashboard.css';

// The ledger's first tab, 'performance statistics' (spec 2, issue 13): task counts over a date
// range and the reminder board by week or month, as a list or an axis of days, all computed by
// the core from the replica (so it answers offline); the quick task and reminder settings
// dialogs; the board as an .ics calendar. A quick task has no sheet to be worked from: its card
// and list row offer its actions (finish, view, restore, delete) here.

type BoardMode = 'list' | 'axis';
type Range = { startDate: string; endDate: string };

const cardKeys = [
  ['total', 'total'],
  ['ongoingCount', 'ongoing'],
  ['completedCount', 'completed'],
  ['toBeImprovedCount', 'toBeImproved'],
  ['overdueCount', 'overdue'],
] as const satisfies readonly (readonly [keyof TaskStatistics, string])[];

/** The counts' default range: the current calendar month of the organisation. */
function thisMonth(): Range {
  const now = DateTime.now().setZone(organisationZone);
  return { startDate: now.startOf('month').toISODate()!, endDate: now.endOf('month').toISODate()! };
}

function useOpenTask() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (task: BoardTask) => {
    const route = taskRoute(task.contractId);
    // A quick task has no contract, so no page to open (spec 8).
    if (route === null) showFailure(t('messages.quickTask'));
    else openRoute(route, (to) => void navigate(to), { newWindow: true });
  };
}

type Actions = Pick<TaskActions, 'finish' | 'view' | 'restore' | 'remove'>;

/** A quick task's actions (it has no plan, so no sheet row to work from); none for a task still waiting to be made on the server. */
function QuickTaskActions({ task, actions }: { task: BoardTask; actions: Actions }) {
  const { t } = useTranslation();
  if (task.planId !== null || task.queued) return null;
  const target = { id: task.id, name: task.name, planId: null, performanceId: null };
  const done = task.state === 4;
  // The card opens the task's contract on a click: an action is the action alone.
  const act = (action: (task: typeof target) => void) => (event: { stopPropagation(): void }) => {
    event.stopPropagation();
    action(target);
  };
  return (
    <span className="dashboard-task__actions" data-testid="quick-task-actions">
      {isFinishable(task.state) && <Button size="small" variant="minimal" intent="primary" data-testid="task-finish" text={t('fulfilment.finish')} onClick={act(actions.finish)} />}
      {done && <Button size="small" variant="minimal" data-testid="task-view" text={t('fulfilment.view')} onClick={act(actions.view)} />}
      {done && <Button size="small" variant="minimal" data-testid="task-restore" text={t('fulfilment.restore')} onClick={act(actions.restore)} />}
      {!done && <Button size="small" variant="minimal" intent="danger" data-testid="task-delete" text={t('fulfilment.delete')} onClick={act(actions.remove)} />}
    </span>
  );
}

function TaskCard({ task, onOpen, actions }: { task: BoardTask; onOpen(task: BoardTask): void; actions: Actions }) {
  const { t } = useTranslation();
  return (
    <Card compact interactive className="dashboard-task" data-testid="dashboard-task" data-task-id={task.id} onClick={() => onOpen(task)} tabIndex={0}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onOpen(task);
      }}
    >
      <div className="dashboard-task__name" title={task.name}>{task.name}</div>
      <div className="dashboard-task__meta" title={task.contractName ?? undefined}>{task.contractName ?? t('dashboard.ics.quickTask')}</div>
      {task.counterpartName && <div className="dashboard-task__meta" title={task.counterpartName}>{task.counterpartName}</div>}
      <div className="dashboard-task__tags">
        <Tag minimal intent={task.state === 3 ? 'danger' : task.state === 4 ? 'success' : 'none'}>{t(`taskState.${stateLabels[task.state]}`)}</Tag>
        {task.amount && <span className="dashboard-task__amount">{formatMoney(task.amount)}</span>}
        {task.queued && <Tag minimal intent="warning" icon="time">{t('dashboard.board.queued')}</Tag>}
      </div>
      {task.refusal && <TaskRefusalNote refusal={task.refusal} />}
      <QuickTaskActions task={task} actions={actions} />
    </Card>
  );
}

function BoardAxis({ days, onOpen, actions }: { days: BoardDay[]; onOpen(task: BoardTask): void; actions: Actions }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="dashboard-axis" data-testid="dashboard-axis">
      {days.map((day) => (
        <div key={day.date} className="dashboard-axis__day" data-testid="dashboard-day" data-date={day.date}>
          <div className="dashboard-axis__date">
            {formatDay(day.date, i18n.language)} <span className="dashboard-axis__count">{day.total}</span>
          </div>
          {day.taskList.map((task) => <TaskCard key={task.id} task={task} onOpen={onOpen} actions={actions} />)}
          {day.total === 0 && <div className="dashboard-axis__none">{t('dashboard.board.nothingDue')}</div>}
          {day.total > day.taskList.length && <div className="dashboard-axis__more">{t('dashboard.board.more', { count: day.total - day.taskList.length })}</div>}
        </div>
      ))}
    </div>
  );
}

function BoardList({ days, onOpen, actions }: { days: BoardDay[]; onOpen(task: BoardTask): void; actions: Actions }) {
  const { t, i18n } = useTranslation();
  const due = days.filter((day) => day.total > 0);
  if (due.length === 0) return <NonIdealState icon="calendar" title={t('dashboard.board.empty')} />;
  return (
    <div className="dashboard-list" data-testid="dashboard-list">
      <HTMLTable compact interactive striped>
        <thead>
          <tr>
            <th>{t('dashboard.board.date')}</th>
            <th>{t('dashboard.board.task')}</th>
            <th>{t('dashboard.board.contract')}</th>
            <th>{t('dashboard.board.counterparty')}</th>
            <th>{t('dashboard.board.state')}</th>
            <th className="ledger-table__amount">{t('dashboard.board.amount')}</th>
            <th>{t('fulfilment.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {due.flatMap((day) => [
            ...day.taskList.map((task) => (
              <tr key={task.id} data-testid="dashboard-task" data-task-id={task.id} tabIndex={0} onClick={() => onOpen(task)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') onOpen(task);
                }}
              >
                <td className="dashboard-list__whole">{formatDay(day.date, i18n.language)}</td>
                <td>
                  {task.name} {task.queued && <Tag minimal intent="warning">{t('dashboard.board.queued')}</Tag>}
                  {task.refusal && <TaskRefusalNote refusal={task.refusal} />}
                </td>
                <td>{task.contractName ?? t('dashboard.ics.quickTask')}</td>
                <td>{task.counterpartName ?? t('contractStatus.missing')}</td>
                <td className="dashboard-list__whole">{t(`taskState.${stateLabels[task.state]}`)}</td>
                <td className="ledger-table__amount dashboard-list__whole">{task.amount ? formatMoney(task.amount) : t('contractStatus.missing')}</td>
                <td>
                  <QuickTaskActions task={task} actions={actions} />
                </td>
              </tr>
            )),
            ...(day.total > day.taskList.length
              ? [
                  <tr key={`${day.date}-more`}>
                    <td />
                    <td colSpan={6} className="dashboard-axis__more">{t('dashboard.board.more', { count: day.total - day.taskList.length })}</td>
                  </tr>,
                ]
              : []),
          ])}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/**
 * The ledger's first tab, 'performance statistics': the count cards, the counterparty risk
 * reminder list (shown only while the credit platform configuration is on), then the board.
 */
export function PerformanceDashboard() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const failed = useActionFailure();
  const openTask = useOpenTask();
  const { services } = useBridgeFormServices();
  const taskActions = useTaskActions(services);
  const [range, setRange] = useState<Range>(thisMonth);
  const [view, setView] = useState<BoardView>('week');
  const [mode, setMode] = useState<BoardMode>('axis');
  const [reminderSettingsOpen, setReminderSettingsOpen] = useState(false);
  const today = organisationDay(new Date());
  const { data: statistics, error: statisticsError } = useTaskStatisticsQuery(range);
  const { data: board, error: boardError } = useTaskBoardQuery(boardRange(view, today));

  async function exportCalendar(exported: Range) {
    const result = await dispatch(performanceApi.endpoints.taskBoard.initiate({ ...exported, perDay: 100_000 }, { subscribe: false, forceRefetch: true }));
    if (result.error || !result.data) {
      if (result.error) failed(result.error as Parameters<typeof failed>[0]);
      return;
    }
    const { text, count } = boardCalendar(result.data.days, {
      calendarName: t('dashboard.ics.calendarName'),
      description: (contractName, counterparty) => t('dashboard.ics.description', { contract: contractName, counterparty }),
      quickTask: t('dashboard.ics.quickTask'),
      none: t('dashboard.ics.none'),
    });
    if (count === 0) {
      showFailure(t('dashboard.board.empty'));
      return;
    }
    downloadCalendar(text, exported);
    showNotice(t('dashboard.ics.exported', { count }));
  }

  const error = statisticsError ?? boardError;
  return (
    <section className="dashboard" data-testid="performance-dashboard">
      <div className="dashboard__toolbar">
        <div className="dashboard__range" data-testid="dashboard-range">
          <DateInput label={t('dashboard.rangeStart')} value={range.startDate} onChange={(value) => value && setRange((was) => ({ startDate: value, endDate: value > was.endDate ? value : was.endDate }))} />
          <span aria-hidden>–</span>
          <DateInput label={t('dashboard.rangeEnd')} value={range.endDate} onChange={(value) => value && setRange((was) => ({ startDate: value < was.startDate ? value : was.startDate, endDate: value }))} />
        </div>
        <div className="dashboard__actions">
          <QuickTaskButton />
          <Button icon="notifications" data-testid="reminder-settings-open" text={t('dashboard.reminderSettings.open')} onClick={() => setReminderSettingsOpen(true)} />
          <Popover
            placement="bottom-end"
            content={
              <Menu>
                <MenuItem text={t('dashboard.ics.week')} data-testid="ics-week" onClick={() => void exportCalendar(boardRange('week', today))} />
                <MenuItem text={t('dashboard.ics.month')} data-testid="ics-month" onClick={() => void exportCalendar(boardRange('month', today))} />
                <MenuItem text={t('dashboard.ics.range')} data-testid="ics-range" onClick={() => void exportCalendar(range)} />
              </Menu>
            }
          >
            <Button icon="export" data-testid="ics-export" endIcon="caret-down" text={t('dashboard.ics.export')} />
          </Popover>
        </div>
      </div>
      {error && (
        <Callout intent="warning" icon="warning-sign" title={t('dashboard.board.loadFailed')}>
          {errorText(t, error)}
        </Callout>
      )}
      <div className="dashboard__cards" data-testid="dashboard-cards">
        {cardKeys.map(([field, label]) => (
          <Card key={field} compact className={`dashboard-count dashboard-count--${label}`}>
            <div className="dashboard-count__label">{t(`dashboard.cards.${label}`)}</div>
            <div className="dashboard-count__value" data-testid={`dashboard-count-${field}`}>{statistics ? statistics[field] : <Spinner size={16} />}</div>
          </Card>
        ))}
      </div>
      <RiskReminderList />
      <div className="dashboard__board-header">
        <h3 className="dashboard__title">{t('dashboard.board.title')}</h3>
        <SegmentedControl
          small
          value={view}
          onValueChange={(value) => setView(value as BoardView)}
          options={[
            { value: 'week', label: t('dashboard.board.week') },
            { value: 'month', label: t('dashboard.board.month') },
          ]}
        />
        <SegmentedControl
          small
          value={mode}
          onValueChange={(value) => setMode(value as BoardMode)}
          options={[
            { value: 'axis', label: t('dashboard.board.axis') },
            { value: 'list', label: t('dashboard.board.list') },
          ]}
        />
      </div>
      {!board ? <Spinner size={24} /> : mode === 'axis' ? <BoardAxis days={board.days} onOpen={openTask} actions={taskActions} /> : <BoardList days={board.days} onOpen={openTask} actions={taskActions} />}
      {taskActions.dialogs}
      <ReminderSettingsDialog isOpen={reminderSettingsOpen} onClose={() => setReminderSettingsOpen(false)} />
    </section>
  );
}
