import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { AppError } from '../../../src-shared/errors';
import { failureText } from './issues';

interface FormDialogProps {
  title: string;
  /** Spec 9's dialog widths: 450, 520, 600, 800, 1000. */
  width?: 450 | 520 | 600 | 800 | 1000;
  onClose(): void;
  /**
   * Checks and sends the form; resolves true when done (the dialog closes), false when the
   * dialog's own check found a problem it shows beside the field. A rejection is shown on top.
   */
  onSubmit(): Promise<boolean>;
  submitText?: string;
  children: ReactNode;
}

/** A dialog around a form: the fields, the refusal of the last attempt, cancel and save. */
export function FormDialog({ title, width = 520, onClose, onSubmit, submitText, children }: FormDialogProps) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setPending(true);
    try {
      if (await onSubmit()) onClose();
    } catch (cause) {
      setFailure(failureText(t, cause as AppError | SerializedError));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog isOpen title={title} onClose={onClose} style={{ width }}>
      <form onSubmit={(event) => void submit(event)}>
        <DialogBody>
          {failure && (
            <Callout intent="danger" icon="error" role="alert" className="manage__failure" data-testid="dialog-failure">
              {failure}
            </Callout>
          )}
          {children}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('manage.cancel')} onClick={onClose} />
              <Button type="submit" intent="primary" loading={pending} text={submitText ?? t('manage.save')} data-testid="dialog-submit" />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
