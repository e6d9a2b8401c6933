import { Checkbox, FormGroup, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { changeLawFirms, lawyersOfFirms, type Lawyer } from '../../../../../../src-shared/form/agent';
import { disabledState } from '../../../../../../src-shared/api/law-firms';
import { lawFirmSchema, lawyerSchema, type AgentValue } from '../../../../../../src-shared/form/field-config';
import { lawFirmPage } from '../../../../../../src-shared/form/parties';
import { formatDateTime } from '../../../../../i18n/format';
import type { FieldProps } from '../../../types';
import { callFailureText, useFormServices } from '../services';

// Agent information (spec 3 "Agent value", spec 7, spec 9): law firms from one page of 100,
// then the lawyers of the chosen firms.

type LawFirm = z.infer<typeof lawFirmSchema>;
type Load<T> = { status: 'loading' } | { status: 'loaded'; list: T[]; asOf?: string } | { status: 'failed'; text: string };

const lawFirmsAnswer = z.object({ list: z.array(lawFirmSchema) });
const lawyersAnswer = z.object({ list: z.array(lawyerSchema) });
const emptyAgent: AgentValue = { lawFirmIDList: [], lawyerIDList: [] };
const lawFirmQuery = { ...lawFirmPage };

/**
 * A list the server answers, kept in the core's cached reads (the same store as the law-firm
 * screens): offline the kept one with its time. `query` null asks nothing (and lists nothing).
 */
function useKeptList<T>(endpoint: 'lawFirmList' | 'lawyersByLawFirms', query: Record<string, string | number> | null, schema: z.ZodType<{ list: T[] }>): Load<T> {
  const { t } = useTranslation();
  const services = useFormServices();
  const key = query && JSON.stringify(query);
  const [state, setState] = useState<{ key: string | null; load: Load<T> }>({ key: null, load: { status: 'loading' } });
  useEffect(() => {
    if (key === null) return;
    let live = true;
    services.cachedRead(endpoint, { query: JSON.parse(key) as Record<string, string | number> }).then(
      (answer) => live && setState({ key, load: { status: 'loaded', list: schema.parse(answer.value).list, ...(answer.offline && { asOf: answer.asOf }) } }),
      (failure: unknown) => live && setState({ key, load: { status: 'failed', text: callFailureText(t, failure) } }),
    );
    return () => {
      live = false;
    };
  }, [services, endpoint, key, schema, t]);
  if (key === null) return { status: 'loaded', list: [] };
  return state.key === key ? state.load : { status: 'loading' };
}

export function AgentInformationField({ field, value, mode, onChange }: FieldProps<AgentValue>) {
  const { t } = useTranslation();
  const agent = value ?? emptyAgent;
  const firmIds = agent.lawFirmIDList;

  const firms = useKeptList<LawFirm>('lawFirmList', lawFirmQuery, lawFirmsAnswer);
  const lawyers = useKeptList<Lawyer>('lawyersByLawFirms', firmIds.length === 0 ? null : { lawFirmIDs: firmIds.join(',') }, lawyersAnswer);
  // A disabled firm or lawyer is offered only where it is chosen already (so it can be unticked).
  const offered = lawyers.status === 'loaded' ? lawyersOfFirms(lawyers.list, firmIds).filter((l) => l.state !== disabledState || agent.lawyerIDList.includes(l.id)) : [];
  const offeredFirms = firms.status === 'loaded' ? firms.list.filter((f) => f.state !== disabledState || firmIds.includes(f.id)) : [];

  function toggleFirm(id: string, on: boolean) {
    const next = on ? [...firmIds, id] : firmIds.filter((f) => f !== id);
    // Lawyers of firms no longer chosen are dropped; before the lawyers load, none are known to keep.
    onChange(changeLawFirms(agent, next, lawyers.status === 'loaded' ? lawyers.list : []));
  }

  function toggleLawyer(id: string, on: boolean) {
    onChange({ ...agent, lawyerIDList: on ? [...agent.lawyerIDList, id] : agent.lawyerIDList.filter((l) => l !== id) });
  }

  if (mode === 'preview') {
    const firmNames = firms.status === 'loaded' ? firms.list.filter((f) => firmIds.includes(f.id)).map((f) => f.name) : firmIds;
    const lawyerNames = lawyers.status === 'loaded' ? lawyers.list.filter((l) => agent.lawyerIDList.includes(l.id)).map((l) => l.name) : agent.lawyerIDList;
    return (
      <dl className="agent-field" data-testid={`agent-${field.id}`}>
        <dt>{t('contractFormComplex.agent.lawFirms')}</dt>
        <dd>{firmNames.join('、') || '--'}</dd>
        <dt>{t('contractFormComplex.agent.lawyers')}</dt>
        <dd>{lawyerNames.join('、') || '--'}</dd>
      </dl>
    );
  }

  const disabled = mode === 'disabled';
  return (
    <div className="agent-field" data-testid={`agent-${field.id}`}>
      <FormGroup label={t('contractFormComplex.agent.lawFirms')}>
        <ListState load={firms} />
        {offeredFirms.map((firm) => (
          <Checkbox
            key={firm.id}
            label={firm.name}
            disabled={disabled}
            checked={firmIds.includes(firm.id)}
            onChange={(event) => toggleFirm(firm.id, event.currentTarget.checked)}
          />
        ))}
      </FormGroup>
      {firmIds.length > 0 && (
        <FormGroup label={t('contractFormComplex.agent.lawyers')}>
          <ListState load={lawyers} />
          {offered.map((lawyer) => (
            <Checkbox
              key={lawyer.id}
              label={lawyer.name}
              disabled={disabled}
              checked={agent.lawyerIDList.includes(lawyer.id)}
              onChange={(event) => toggleLawyer(lawyer.id, event.currentTarget.checked)}
            />
          ))}
        </FormGroup>
      )}
    </div>
  );
}

function ListState({ load }: { load: Load<unknown> }) {
  const { t, i18n } = useTranslation();
  if (load.status === 'loading') return <Spinner size={16} aria-label={t('contractFormComplex.agent.loading')} />;
  if (load.status === 'failed') return <p role="status">{load.text}</p>;
  return (
    <>
      {load.asOf && (
        <p className="agent-field__as-of" data-testid="agent-as-of">
          {t('cachedReads.asOf', { time: formatDateTime(load.asOf, i18n.language) })}
        </p>
      )}
      {load.list.length === 0 && <p>{t('form.noData')}</p>}
    </>
  );
}
