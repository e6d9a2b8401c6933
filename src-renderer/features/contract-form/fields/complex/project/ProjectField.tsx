import { Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { projectValueSchema, type ProjectValue } from '../../../../../../src-shared/form/field-config';
import type { CachedAnswer } from '../../../../../../src-shared/ipc/cached-reads';
import { AsOfNote } from '../../../../cached-reads/AsOfNote';
import type { FieldProps } from '../../../types';
import { fieldInputId, OptionSelect, PreviewText, usePlaceholder } from '../../basic/shared';
import { callFailureText, isOfflineFailure, useFormServices } from '../services';

// The relationProject field: one project ({id, name}) of the server's projects (spec 7
// "Projects", GET project/list/all). The list is kept by the core (read ahead at sign-in and on
// reconnect), so offline the field offers it "as of" when it was read; never read, the kept
// value still shows and the field says that choosing needs a connection.

type Load = { status: 'loading' } | { status: 'loaded'; list: ProjectValue[]; answer: CachedAnswer<unknown> } | { status: 'failed'; text: string };

const projectsAnswer = z.object({ list: z.array(projectValueSchema) });

export function ProjectField(props: FieldProps<ProjectValue>) {
  const { field, value, mode, onChange } = props;
  const { t } = useTranslation();
  const services = useFormServices();
  const placeholder = usePlaceholder(field, 'pleaseSelect');
  const parsed = projectValueSchema.safeParse(value);
  const kept = parsed.success ? parsed.data : null;
  const editing = mode === 'edit';
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  useEffect(() => {
    if (!editing) return;
    let live = true;
    services.cachedRead('projectListAll', {}).then(
      (answer) => {
        if (!live) return;
        const projects = projectsAnswer.safeParse(answer.value);
        setLoad(projects.success ? { status: 'loaded', list: projects.data.list, answer } : { status: 'failed', text: callFailureText(t, { code: 'server_error', message: projects.error.message }) });
      },
      (failure: unknown) => live && setLoad({ status: 'failed', text: isOfflineFailure(failure) ? t('errors.offline') : callFailureText(t, failure) }),
    );
    return () => {
      live = false;
    };
  }, [editing, services, t]);

  if (mode === 'preview') return <PreviewText field={field} text={kept?.name} />;

  const listed = editing && load.status === 'loaded' ? load.list : [];
  // The kept project stays offered even when the list is not there (offline) or no longer has it.
  const options = kept && !listed.some((project) => project.id === kept.id) ? [kept, ...listed] : listed;
  const choose = (id: string | undefined) => onChange(id === undefined ? undefined : options.find((project) => project.id === id));
  return (
    <div className="project-field" data-testid={`project-${field.id}`}>
      <OptionSelect
        id={fieldInputId(field.id)}
        options={options}
        value={kept?.id ?? ''}
        placeholder={placeholder}
        props={{ ...props, mode: editing && load.status === 'loaded' ? mode : 'disabled' } as FieldProps<never>}
        onSelect={choose}
      />
      {editing && load.status === 'loading' && <Spinner size={16} aria-label={t('contractFormComplex.project.loading')} />}
      {editing && load.status === 'failed' && <p role="status">{load.text}</p>}
      {editing && load.status === 'loaded' && <AsOfNote answer={load.answer} testId="project-as-of" />}
    </div>
  );
}
