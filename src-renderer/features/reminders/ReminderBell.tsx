import { Button, Callout, NonIdealState, PopoverNext, Tag } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { AppReminder, SnoozeChoice } from '../../../src-shared/ipc/reminders';
import { snoozeChoices } from '../../../src-shared/ipc/reminders';
import { taskRoute } from '../../../src-shared/rules/dashboard';
import { useAppInfoQuery } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { showFailure, showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { openRoute } from '../contracts/openRoute';
import { bridgeOf } from '../contracts/useBridgeFormServices';
import { askNotificationAccess, notificationAccess, notify, reminderText, type NotificationAccess } from './browserNotifications';
import { remindersReceived, useDismissReminderMutation, useDueRemindersQuery, useSnoozeReminderMutation } from './remindersApi';
import './reminders.css';

// The browser edition's reminders (issue 28 item 9): a bell in the top bar with the count of due
// reminders, opening their list; each opens its task's page as the desktop's notification does,
// or is snoozed with the desktop's choices. With the user's permission, each reminder falling due
// is also a browser notification. The desktop shows native notifications instead: no bell there.

const snoozeLabels: Record<SnoozeChoice, 'reminders.snoozeOneHour' | 'reminders.snoozeTomorrow'> = { oneHour: 'reminders.snoozeOneHour', tomorrow: 'reminders.snoozeTomorrow' };

export function ReminderBell() {
  const { data: appInfo } = useAppInfoQuery();
  return appInfo?.host === 'web' ? <Reminders /> : null;
}

/** Opens a reminder's task: its contract's performance tab (a quick task has none), and takes the reminder off the list. */
function useOpenReminder() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [dismiss] = useDismissReminderMutation();
  return (reminder: AppReminder, options: { newWindow: boolean }) => {
    // Already gone (snoozed or opened on another page): the task still opens.
    void dismiss({ id: reminder.id }).unwrap().catch(() => undefined);
    const route = taskRoute(reminder.contractId);
    if (route === null) showFailure(t('messages.quickTask'));
    else openRoute(route, (to) => void navigate(to), options);
  };
}

function Reminders() {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const { data: reminders = [] } = useDueRemindersQuery();
  const openReminder = useOpenReminder();
  // The event handler reads the latest language and navigation without subscribing again.
  const onDue = useRef<(reminder: AppReminder) => void>(() => undefined);
  useEffect(() => {
    onDue.current = (reminder) => notify(t, i18n.language, reminder, () => openReminder(reminder, { newWindow: false }));
  });
  useEffect(
    () =>
      dispatch(bridgeOf).on('reminders.changed', ({ reminders: list, due }) => {
        dispatch(remindersReceived(list));
        if (notificationAccess() !== 'granted') return;
        for (const reminder of list) if (due.includes(reminder.id)) onDue.current(reminder);
      }),
    [dispatch],
  );
  const count = reminders.length;
  return (
    <PopoverNext content={<ReminderList reminders={reminders} onOpen={(reminder) => openReminder(reminder, { newWindow: true })} />} placement="bottom-end">
      <Button
        data-testid="reminder-bell"
        data-count={count}
        variant="minimal"
        icon="notifications"
        aria-label={t('browserReminders.bellCount', { count })}
        title={t('browserReminders.bellCount', { count })}
        endIcon={count > 0 ? <Tag round intent="danger" data-testid="reminder-count">{count}</Tag> : undefined}
      />
    </PopoverNext>
  );
}

export function ReminderList({ reminders, onOpen }: { reminders: AppReminder[]; onOpen(reminder: AppReminder): void }) {
  const { t } = useTranslation();
  return (
    <div className="reminder-list" data-testid="reminder-list">
      <h4 className="reminder-list__title">{t('browserReminders.title')}</h4>
      <NotificationAccessNote />
      {reminders.length === 0 ? (
        <NonIdealState icon="notifications" description={t('browserReminders.empty')} />
      ) : (
        <ul className="reminder-list__items">
          {reminders.map((reminder) => (
            <ReminderItem key={reminder.id} reminder={reminder} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ReminderItem({ reminder, onOpen }: { reminder: AppReminder; onOpen(reminder: AppReminder): void }) {
  const { t, i18n } = useTranslation();
  const [snooze, { isLoading: snoozing }] = useSnoozeReminderMutation();
  const [dismiss] = useDismissReminderMutation();
  const onFailure = useActionFailure();
  const text = reminderText(t, i18n.language, reminder);
  return (
    <li className="reminder-item" data-testid="reminder-item" data-reminder-id={reminder.id}>
      <div className="reminder-item__heading">
        <Tag minimal intent={reminder.heading === 'overdue' ? 'danger' : 'warning'}>{text.title}</Tag>
        <span className="reminder-item__kind">{text.kind}</span>
      </div>
      <div className="reminder-item__task" title={reminder.taskName} data-testid="reminder-task">{reminder.taskName}</div>
      <div className="reminder-item__meta" title={text.contract} data-testid="reminder-contract">{text.contract}</div>
      <div className="reminder-item__meta" data-testid="reminder-due">{text.due}</div>
      <div className="reminder-item__actions">
        <Button size="small" intent="primary" text={t('browserReminders.open')} data-testid="reminder-open" onClick={() => onOpen(reminder)} />
        {snoozeChoices.map((choice) => (
          <Button
            key={choice}
            size="small"
            variant="outlined"
            text={t(snoozeLabels[choice])}
            disabled={snoozing}
            data-testid={`reminder-snooze-${choice}`}
            onClick={() =>
              void snooze({ id: reminder.id, choice })
                .unwrap()
                .then(() => showNotice(t(`browserReminders.snoozed.${choice}`)), onFailure)
            }
          />
        ))}
        <Button
          size="small"
          variant="minimal"
          icon="cross"
          className="reminder-item__dismiss"
          aria-label={t('browserReminders.dismiss')}
          title={t('browserReminders.dismiss')}
          data-testid="reminder-dismiss"
          onClick={() => void dismiss({ id: reminder.id }).unwrap().catch(onFailure)}
        />
      </div>
    </li>
  );
}

/** Whether reminders also come as browser notifications; asks for permission from the user's click. */
function NotificationAccessNote() {
  const { t } = useTranslation();
  const [access, setAccess] = useState<NotificationAccess>(notificationAccess);
  if (access === 'default') {
    return (
      <div className="reminder-list__access">
        <Button size="small" icon="notifications-updated" text={t('browserReminders.notifications.ask')} data-testid="reminder-notifications-ask" onClick={() => void askNotificationAccess().then(setAccess)} />
        <span className="reminder-list__hint">{t('browserReminders.notifications.askHint')}</span>
      </div>
    );
  }
  return (
    <Callout compact className="reminder-list__access" intent={access === 'granted' ? 'success' : 'none'} data-testid="reminder-notifications" data-access={access}>
      {t(`browserReminders.notifications.${access}`)}
    </Callout>
  );
}
