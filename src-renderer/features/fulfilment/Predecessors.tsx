import { Alert, Button, Callout, Checkbox, Classes, Dialog, DialogBody, DialogFooter, HTMLTable, Icon, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaskState } from '../../../src-shared/domain/enums';
import type { SheetTask } from '../../../src-shared/ipc/fulfilment';
import { nameMatches } from '../../../src-shared/rules/fulfilment';
import { useRelateCandidatesQuery, useRelateTaskMutation, useUnrelateTaskMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { formatDay } from '../../i18n/format';
import { stateLabels } from './taskStateLabels';

// Predecessor tasks on the performance tab (spec 4 and 7: relate, front_tasks, can_be_front): a
// row's predecessors with their removal, and the dialog relating a task to earlier tasks of its
// contract. Both are queued edits (they work offline); the core refuses at once what the server
// would refuse, by the shared rules (src-shared/rules/fulfilment).

/** A task's relations may change while it is unfinished and the server has made it. */
export const relationsEditable = (task: SheetTask) => !task.queuedNew && task.state !== TaskState.Success;

/** The predecessors cell of a sheet row: each predecessor by name (removable), and the relate action. */
export function PredecessorCell({ task, onRelate }: { task: SheetTask; onRelate(task: SheetTask): void }) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState<SheetTask['predecessors'][number] | null>(null);
  const [unrelate] = useUnrelateTaskMutation();
  const failed = useActionFailure();
  const editable = relationsEditable(task);
  return (
    <div className="fulfilment-predecessors" data-testid="task-predecessors">
      {task.predecessors.map((front) => (
        <Tag
          key={front.id}
          minimal
          intent={front.finished ? 'success' : 'none'}
          icon={front.finished ? 'tick' : 'flow-linear'}
          data-testid="task-predecessor"
          data-front-id={front.id}
          title={front.finished ? `${front.name} (${t('predecessors.finished')})` : front.name}
          rightIcon={
            editable ? (
              // Blueprint's own remove button is labelled in English only: this one in the UI's language.
              <button type="button" className={Classes.TAG_REMOVE} data-testid="predecessor-remove" aria-label={t('predecessors.remove', { name: front.name })} onClick={() => setRemoving(front)}>
                <Icon icon="small-cross" />
              </button>
            ) : undefined
          }
        >
          {front.name}
        </Tag>
      ))}
      {editable && task.relatable && (
        <Button
          small
          minimal
          icon="add"
          data-testid="task-relate"
          aria-label={t('predecessors.relateLabel', { name: task.name })}
          title={t('predecessors.relateLabel', { name: task.name })}
          text={t('predecessors.relate')}
          onClick={() => onRelate(task)}
        />
      )}
      <Alert
        isOpen={removing !== null}
        intent="danger"
        confirmButtonText={t('predecessors.removeAction')}
        cancelButtonText={t('predecessors.cancel')}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const front = removing!;
          setRemoving(null);
          unrelate({ id: task.id, frontTaskID: front.id })
            .unwrap()
            .then(() => showNotice(t('predecessors.removed')), failed);
        }}
      >
        <p data-testid="unrelate-confirm">{removing && t('predecessors.removeConfirm', { front: removing.name, task: task.name })}</p>
      </Alert>
    </div>
  );
}

/** Relating a task to earlier tasks of its contract: the candidates from the replica, searchable, several at once. */
export function RelateDialog({ task, onClose }: { task: SheetTask; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { data: candidates, error } = useRelateCandidatesQuery(task.id);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [relate, relating] = useRelateTaskMutation();
  const failed = useActionFailure();
  const shown = (candidates ?? []).filter((candidate) => nameMatches(candidate.name, query));
  const toggle = (id: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const submit = () =>
    relate({ id: task.id, frontTaskIDList: [...picked] })
      .unwrap()
      .then(() => {
        showNotice(t('predecessors.related'));
        onClose();
      }, failed);
  return (
    <Dialog isOpen onClose={onClose} title={t('predecessors.relateTitle', { name: task.name })} style={{ width: 600 }}>
      <div data-testid="relate-dialog">
        <DialogBody>
          <p className="fulfilment-relate__hint">{t('predecessors.relateHint')}</p>
          <InputGroup
            leftIcon="search"
            type="search"
            data-testid="relate-search"
            placeholder={t('predecessors.search')}
            aria-label={t('predecessors.search')}
            value={query}
            onValueChange={setQuery}
            autoFocus
          />
          {error && <Callout intent="danger">{errorText(t, error)}</Callout>}
          {!candidates && !error && <Spinner size={20} />}
          {candidates && shown.length === 0 && (
            <NonIdealState icon="search" description={candidates.length === 0 ? t('predecessors.none') : t('predecessors.noMatch')} />
          )}
          {shown.length > 0 && (
            <div className="fulfilment-relate__list">
              <HTMLTable compact striped className="contract-page__table" data-testid="relate-candidates">
                <thead>
                  <tr>
                    <th aria-hidden />
                    <th>{t('fulfilment.index')}</th>
                    <th>{t('fulfilment.taskName')}</th>
                    <th>{t('fulfilment.dueDate')}</th>
                    <th>{t('fulfilment.state')}</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((candidate) => (
                    <tr key={candidate.id} data-testid="relate-candidate" data-task-id={candidate.id}>
                      <td>
                        <Checkbox
                          className="fulfilment-sheet__pick"
                          aria-label={t('fulfilment.selectRow', { name: candidate.name })}
                          checked={picked.has(candidate.id)}
                          onChange={(event) => toggle(candidate.id, event.currentTarget.checked)}
                        />
                      </td>
                      <td>{candidate.rowIndex}</td>
                      <td>{candidate.name}</td>
                      <td className="fulfilment-relate__date">{candidate.dueDate ? formatDay(candidate.dueDate, i18n.language) : t('contractStatus.missing')}</td>
                      <td>{t(`taskState.${stateLabels[candidate.state]}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button data-testid="relate-cancel" text={t('predecessors.cancel')} onClick={onClose} />
              <Button
                intent="primary"
                data-testid="relate-confirm"
                disabled={picked.size === 0}
                loading={relating.isLoading}
                text={t('predecessors.confirm', { count: picked.size })}
                onClick={() => void submit()}
              />
            </>
          }
        />
      </div>
    </Dialog>
  );
}
