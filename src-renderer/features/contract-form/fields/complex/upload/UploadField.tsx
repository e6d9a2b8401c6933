import { Button, ProgressBar, Tag, Tooltip } from '@blueprintjs/core';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadValue } from '../../../../../../src-shared/form/field-config';
import { maxUploadBytes } from '../../../../../../src-shared/ipc/files';
import type { FormMessage } from '../../../../../../src-shared/form/messages';
import type { QueuedFile } from '../../../../../../src-shared/ipc/files';
import { errorText } from '../../../../../i18n/errorText';
import {
  checkDroppedFiles,
  checkUploadFile,
  extensionMimeTypes,
  idleUpload,
  uploadActionLabels,
  uploadActions,
  uploadTransition,
  type UploadAction,
  type UploadEvent,
  type UploadRules,
  type UploadState,
} from '../../../../../../src-shared/form/upload';
import { fieldInputId } from '../../../ids';
import type { FieldProps } from '../../../types';
import { formMessageText, useContractId, useFormServices } from '../services';

// The upload and customAttachment fields (spec 4 "File upload", spec 5, spec 8), driven by the
// shared upload state machine.

/**
 * The spec gives neither accepted formats nor a size limit: the field accepts the formats the app
 * knows the content types of, up to the server's default limit of 20 MB.
 */
export const uploadRules: UploadRules = { accept: Object.keys(extensionMimeTypes), maxSize: maxUploadBytes };

/** A queued file's state beside its name: waiting (with the share the server acknowledged), or refused with why. */
function QueuedTag({ file }: { file: QueuedFile }) {
  const { t } = useTranslation();
  if (file.state === 'refused') {
    return (
      <Tag minimal intent="danger" icon="error" className="upload-field__queued" data-testid="upload-queued" role="alert">
        {t('contractFormComplex.upload.refused', { reason: file.error ? errorText(t, file.error) : '' })}
      </Tag>
    );
  }
  const percent = file.size === 0 ? 0 : Math.floor((file.sent / file.size) * 100);
  return (
    <Tooltip content={t('contractFormComplex.upload.waitingHint')}>
      <Tag minimal icon="cloud-upload" className="upload-field__queued" data-testid="upload-queued">
        {percent > 0 ? t('contractFormComplex.upload.waitingSent', { percent }) : t('contractFormComplex.upload.waiting')}
      </Tag>
    </Tooltip>
  );
}

export function UploadField({ field, value, mode, onChange }: FieldProps<UploadValue | null>) {
  const { t } = useTranslation();
  const services = useFormServices();
  const contractId = useContractId();
  const [machine, setMachine] = useState<UploadState>(idleUpload);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const stateRef = useRef(machine);
  const controller = useRef<AbortController | null>(null);
  const lastFile = useRef<File | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => () => controller.current?.abort(), []);

  // A file kept on the device until the server has it shows as waiting (issue 30).
  const [queued, setQueued] = useState<QueuedFile | null>(null);
  const valueId = value?.id;
  // What it says of another file than the value's is never shown (compared by id where it is used).
  useEffect(() => (valueId === undefined ? undefined : services.watchQueuedFile?.(valueId, setQueued)), [valueId, services]);

  // Between uploads the field shows its value, whoever set it (a loaded contract, a reset form).
  const settled = (current: UploadState): UploadState =>
    current.status === 'uploading' || current.status === 'error' ? current : value ? { status: 'success', file: value } : idleUpload;
  const state = settled(machine);

  function dispatch(event: UploadEvent) {
    const step = uploadTransition(settled(stateRef.current), event);
    if (step.log) console.error(`Uploading ${field.name} failed.`, event);
    stateRef.current = step.state;
    setMachine(step.state);
    return step.state;
  }

  function send(file: File) {
    const checked = checkUploadFile(file, uploadRules);
    if (!checked.ok) return setMessage(checked.message);
    setMessage(null);
    lastFile.current = file;
    const abort = new AbortController();
    controller.current = abort;
    dispatch({ type: 'start', fileName: file.name, cancellable: true });
    services.upload(file, { signal: abort.signal, ...(contractId && { contractId }), onProgress: (fraction) => dispatch({ type: 'progress', percent: fraction * 100 }) }).then(
      (stored) => {
        if (dispatch({ type: 'succeeded', file: stored }).status === 'success') onChange(stored);
      },
      (failure: unknown) => {
        const cancelled = abort.signal.aborted;
        if (!cancelled) console.error(`Uploading ${field.name} failed.`, failure);
        dispatch({ type: 'failed', cancelled });
      },
    );
  }

  function act(action: UploadAction) {
    switch (action) {
      case 'view':
        if (state.status === 'success') services.openRoute(state.file.file, { newWindow: true });
        return;
      case 'edit':
        return picker.current?.click();
      case 'delete':
        dispatch({ type: 'delete' });
        return onChange(null);
      case 'cancel':
        dispatch({ type: 'cancel' });
        return controller.current?.abort();
      case 'reupload':
        dispatch({ type: 'delete' });
        return lastFile.current ? send(lastFile.current) : picker.current?.click();
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    if (mode !== 'edit') return;
    const dropped = checkDroppedFiles([...event.dataTransfer.files], uploadRules);
    if (!dropped.ok) return setMessage(dropped.message);
    send(dropped.value);
  }

  const editing = mode === 'edit';
  const actions = uploadActions(state, editing).filter((action) => editing || action === 'view');

  return (
    <div className="upload-field" data-testid={`upload-${field.id}`} onDragOver={(event) => event.preventDefault()} onDrop={drop}>
      <input
        ref={picker}
        id={fieldInputId(field.id)}
        type="file"
        hidden
        aria-label={field.name}
        accept={uploadRules.accept?.join(',')}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) send(file);
        }}
      />
      {state.status === 'idle' &&
        (editing ? <Button icon="upload" text={t('contractFormComplex.upload.choose')} onClick={() => picker.current?.click()} /> : <span>--</span>)}
      {state.status === 'uploading' && (
        <div role="status">
          {t('contractFormComplex.upload.uploading', { name: state.fileName })}
          {state.progress !== undefined && <ProgressBar value={state.progress / 100} aria-label={`${state.progress}%`} />}
        </div>
      )}
      {state.status === 'success' && <span className="upload-field__name">{state.file.name}</span>}
      {state.status === 'success' && queued?.id === state.file.id && <QueuedTag file={queued} />}
      {state.status === 'error' && (
        <span className="upload-field__name">
          {state.fileName} <span role="alert">{formMessageText(t, state.message)}</span>
        </span>
      )}
      {actions.map((action) => (
        <Button key={action} variant="minimal" text={t(`form.${uploadActionLabels[action]}`)} onClick={() => act(action)} />
      ))}
      {message && <p className="form-field__error" role="alert">{formMessageText(t, message)}</p>}
    </div>
  );
}
