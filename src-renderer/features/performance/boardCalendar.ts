import { createEvents, type EventAttributes } from 'ics';
import { downloadFile } from '../../app/download';
import { formatMoney } from '../../../src-shared/domain/money';
import type { BoardDay } from '../../../src-shared/ipc/dashboard';
import { addDays } from '../../../src-shared/rules/dashboard';

// The reminder board as an iCalendar file (issue 13 item 6), through the `ics` library: one
// all-day event per task on its due date, naming its contract and counterparty, so staff see
// their obligations in Outlook or any calendar. A task's id makes its UID, so importing a later
// export again updates the events instead of doubling them.

export interface CalendarLabels {
  calendarName: string;
  /** The event description from the contract's and the counterparty's names. */
  description(contract: string, counterparty: string): string;
  /** What a quick task (no contract) names as its contract; what a missing counterparty shows. */
  quickTask: string;
  none: string;
}

const dayArray = (day: string): [number, number, number] => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return [year, month, date];
};

/** The .ics text of every task on the board's days. */
export function boardCalendar(days: readonly BoardDay[], labels: CalendarLabels): { text: string; count: number } {
  const events: EventAttributes[] = days.flatMap((day) =>
    day.taskList.map((task) => ({
      uid: `${task.id}@contract-desk`,
      title: task.amount ? `${task.name} (${formatMoney(task.amount)})` : task.name,
      start: dayArray(task.dueDate),
      end: dayArray(addDays(task.dueDate, 1)),
      description: labels.description(task.contractName ?? labels.quickTask, task.counterpartName ?? labels.none),
      categories: [task.contractName ?? labels.quickTask],
      calName: labels.calendarName,
    })),
  );
  if (events.length === 0) return { text: '', count: 0 };
  const { error, value } = createEvents(events, { productId: 'contract-desk/performance', calName: labels.calendarName });
  if (error || !value) throw error ?? new Error('the calendar could not be written');
  return { text: value, count: events.length };
}

/** Offers the calendar as a download named after its range. */
export function downloadCalendar(text: string, range: { startDate: string; endDate: string }): void {
  downloadFile(text, `performance-tasks-${range.startDate}-${range.endDate}.ics`, 'text/calendar;charset=utf-8');
}
