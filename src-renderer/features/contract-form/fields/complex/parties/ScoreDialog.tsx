import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Spinner, TextArea } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ScoreDetailAnswer } from '../../../../../../src-shared/ipc/scoring';
import { toAppError } from '../../../../../../src-shared/errors';
import {
  scoreError,
  scoreIntegerMessage,
  scoreRequiredMessage,
  scoreSavedMessage,
  scoreTooHighMessage,
} from '../../../../../../src-shared/rules/scoring';
import { AsOfNote } from '../../../../cached-reads/AsOfNote';
import { callFailureText, isOfflineFailure, useContractId, useFormServices } from '../services';

// The counterparty scoring dialog, 800px wide (spec 2 "Counterparty scoring dialog", spec 4
// "Scoring dialog", spec 5 "Scoring"): opens and loads, validates each criterion on blur and
// before submit, submits on confirm and closes on success; closing drops what was typed. Offline
// (issue 30) it shows the kept detail as of its time, and a score saved then waits to sync: the
// dialog shows the user's queued scores as waiting until the server has applied them.

export const scoreDialogWidth = 800;

const scoreMessageKeys = {
  [scoreRequiredMessage]: 'messages.scoreRequired',
  [scoreIntegerMessage]: 'messages.scoreInteger',
  [scoreTooHighMessage]: 'messages.scoreMax',
} as const;

type Loaded = { status: 'loading' } | { status: 'loaded'; answer: ScoreDetailAnswer } | { status: 'failed'; text: string };

interface ScoreDialogProps {
  onClose(): void;
  /** Called with 'operation successful!' once the scores are saved (or with 'saved on this device' once queued); the dialog then closes. */
  onSaved(text: string): void;
}

/**
 * A contract saved on this device but not yet synced, with no criteria read here before; or a
 * detail never read on this device while the server is away.
 */
function scoreLoadFailureText(t: TFunction, failure: unknown): string {
  if (toAppError(failure).code === 'not_found') return t('contractFormComplex.score.notOnServer');
  return isOfflineFailure(failure) ? t('cachedReads.neverRead') : callFailureText(t, failure);
}

export function ScoreDialog({ onClose, onSaved }: ScoreDialogProps) {
  const { t } = useTranslation();
  const contractId = useContractId();
  return (
    <Dialog isOpen onClose={onClose} title={t('contractFormComplex.score.title')} style={{ width: scoreDialogWidth }}>
      {contractId ? (
        <ScoreForm contractId={contractId} onClose={onClose} onSaved={onSaved} />
      ) : (
        <DialogBody>
          <p role="status">{t('contractFormComplex.score.saveFirst')}</p>
        </DialogBody>
      )}
    </Dialog>
  );
}

function ScoreForm({ contractId, onClose, onSaved }: ScoreDialogProps & { contractId: string }) {
  const { t } = useTranslation();
  const services = useFormServices();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [scores, setScores] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [comment, setComment] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    services.scoreDetail(contractId).then(
      (answer) => {
        if (!live) return;
        const criteria = answer.value.resultItems.flatMap((group) => group.children);
        setScores(Object.fromEntries(criteria.map((c) => [c.id, c.actualScore === null ? '' : String(c.actualScore)])));
        setComment(answer.value.comment);
        setLoaded({ status: 'loaded', answer });
      },
      (failure: unknown) => live && setLoaded({ status: 'failed', text: scoreLoadFailureText(t, failure) }),
    );
    return () => {
      live = false;
    };
  }, [services, contractId, t]);

  if (loaded.status !== 'loaded') {
    return <DialogBody>{loaded.status === 'loading' ? <Spinner size={20} /> : <p role="status">{loaded.text}</p>}</DialogBody>;
  }
  const { answer } = loaded;
  const detail = answer.value;
  const criteria = detail.resultItems.flatMap((group) => group.children);
  const errorOf = (id: string, maxScore: number) => {
    const message = scoreError(scores[id], maxScore);
    return message ? t(scoreMessageKeys[message as keyof typeof scoreMessageKeys]) : null;
  };

  function submit() {
    setTouched(Object.fromEntries(criteria.map((c) => [c.id, true])));
    if (criteria.some((c) => scoreError(scores[c.id], c.maxScore))) return;
    setSaving(true);
    const body = {
      comment,
      ...(detail.version !== null && { version: detail.version }),
      resultItems: detail.resultItems.map((group) => ({
        id: group.id,
        children: group.children.map((c) => ({ id: c.id, actualScore: Number(scores[c.id]) })),
      })),
    };
    services.saveScore({ contractId, body }).then(
      ({ queued }) => {
        setSaving(false);
        onSaved(queued ? t('contractFormComplex.score.savedQueued') : t('messages.operationSuccessful', { defaultValue: scoreSavedMessage }));
        onClose();
      },
      (cause: unknown) => {
        setSaving(false);
        setFailure(callFailureText(t, cause));
      },
    );
  }

  return (
    <>
      <DialogBody>
        <AsOfNote answer={answer} testId="score-as-of" />
        {answer.queued && (
          <Callout compact intent="primary" icon="time" data-testid="score-queued">
            {t('contractFormComplex.score.queued')}
          </Callout>
        )}
        {/* The party and the organisation's criteria are data, in the words they were entered in. */}
        <p data-user-data>{detail.counterpartyName}</p>
        {detail.resultItems.map((group) => (
          <section key={group.id} className="score-group">
            <h4 data-user-data>{group.name}</h4>
            {group.children.map((c) => {
              const shown = touched[c.id] ? errorOf(c.id, c.maxScore) : null;
              return (
                <FormGroup
                  key={c.id}
                  label={<span data-user-data>{c.name}</span>}
                  labelFor={`score-${c.id}`}
                  helperText={
                    shown ?? (
                      <>
                        <span data-user-data>{c.criterion}</span> · {t('contractFormComplex.score.maxScore', { max: c.maxScore })}
                      </>
                    )
                  }
                  intent={shown ? 'danger' : 'none'}
                >
                  <InputGroup
                    id={`score-${c.id}`}
                    inputMode="numeric"
                    min={0}
                    max={c.maxScore}
                    value={scores[c.id] ?? ''}
                    // Kept as typed ('1.5' stays '1.5'): the rules say what is wrong with it, nothing rewrites it.
                    onValueChange={(text) => setScores((s) => ({ ...s, [c.id]: text }))}
                    onBlur={() => setTouched((s) => ({ ...s, [c.id]: true }))}
                  />
                </FormGroup>
              );
            })}
          </section>
        ))}
        <FormGroup label={t('contractFormComplex.score.explanation')} labelFor="score-comment">
          <TextArea
            id="score-comment"
            fill
            placeholder={t('contractFormComplex.score.explanationPlaceholder')}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
          />
        </FormGroup>
        {failure && <Callout intent="danger">{failure}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('form.cancel')} onClick={onClose} />
            <Button intent="primary" loading={saving} text={t('contractFormComplex.score.confirm')} onClick={submit} />
          </>
        }
      />
    </>
  );
}
