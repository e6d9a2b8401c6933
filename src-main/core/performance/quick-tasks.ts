import { quickTaskDate, type QuickTaskPayload } from '../../../src-shared/domain/performance';
import { mutations } from '../../../src-shared/sync/mutations';

// Quick tasks this device queued: the mutation changes no synced row (its id is made here), so
// the dashboard and the contract's performance tab read them from the outbox until the pull
// brings the server's task with the same id.

/** The outbox rows of quick tasks queued (or applied and not pulled yet); read them `order by seq`. */
export const queuedQuickTasksWhere = `name = 'performance.quickTask' and state in ('pending', 'applied')
  and not exists (select 1 from performance_tasks t where t.id = json_extract(outbox.args, '$.id'))`;

export interface QueuedQuickTask {
  id: string;
  payload: QuickTaskPayload;
  dueDate: string;
}

/** The outbox rows `queuedQuickTasksWhere` selects, parsed by the shared schema (a corrupted one is the outbox's to set aside). */
export function parseQueuedQuickTasks(rows: readonly { args: string }[]): QueuedQuickTask[] {
  const tasks: QueuedQuickTask[] = [];
  for (const row of rows) {
    const parsed = mutations['performance.quickTask'].args.safeParse(JSON.parse(row.args));
    const dueDate = parsed.success ? quickTaskDate(parsed.data.payload.fieldList) : null;
    if (parsed.success && dueDate !== null) tasks.push({ id: parsed.data.id, payload: parsed.data.payload, dueDate });
  }
  return tasks;
}
