import { Button, HTMLSelect } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { RelationGroup } from '../../../../../../src-shared/form/field-config';
import { validateRelatedContracts } from '../../../../../../src-shared/form/related-contracts';
import type { FieldProps } from '../../../types';
import { callFailureText, formMessageText, useFormServices } from '../services';

// Related contracts (spec 3, spec 5, spec 7): relation groups of at least two contracts each,
// chosen from the contracts the server offers for relating; the relationship of each comes from
// the field's options.

/** The relation type the server lists candidates for (spec 7: relationType=3, type=1). */
export const relatedCandidatesQuery = { relationType: 3, type: 1 } as const;

const candidatesAnswer = z.object({ list: z.array(z.object({ id: z.string(), name: z.string() })) });
type Candidates = { status: 'loading' } | { status: 'loaded'; names: string[] } | { status: 'failed'; text: string };

export function RelatedContractsField({ field, value, mode, onChange }: FieldProps<RelationGroup[]>) {
  const { t } = useTranslation();
  const services = useFormServices();
  const groups = value ?? [];
  const [touched, setTouched] = useState(false);
  const [candidates, setCandidates] = useState<Candidates>({ status: 'loading' });
  const editing = mode === 'edit';

  useEffect(() => {
    if (!editing) return;
    let live = true;
    services.onlineCall('contractsForRelated', { query: { ...relatedCandidatesQuery } }).then(
      (answer) => live && setCandidates({ status: 'loaded', names: candidatesAnswer.parse(answer).list.map((c) => c.name) }),
      (failure: unknown) => live && setCandidates({ status: 'failed', text: callFailureText(t, failure) }),
    );
    return () => {
      live = false;
    };
  }, [services, editing, t]);

  const relationships = (field.options ?? []).map((o) => ({ value: Number(o.id), label: o.name }));
  const relationshipName = (id: number) => relationships.find((r) => r.value === id)?.label ?? '--';
  const issues = touched ? validateRelatedContracts(groups) : [];
  const groupMessage = (group: number) => issues.find((i) => i.group === group && i.row === undefined);
  const rowMessage = (group: number, row: number) => issues.find((i) => i.group === group && i.row === row);

  function change(next: RelationGroup[]) {
    setTouched(true);
    onChange(next);
  }
  const updateGroup = (at: number, group: RelationGroup) => change(groups.map((g, i) => (i === at ? group : g)));

  if (mode === 'preview') {
    return (
      <ul className="related-contracts" data-testid={`related-${field.id}`}>
        {groups.length === 0 && <li>--</li>}
        {groups.map((group, g) => (
          <li key={g}>
            {group.relatedContracts.map((row) => `${row.contractName} (${relationshipName(row.relationshipID)})`).join('、')}
          </li>
        ))}
      </ul>
    );
  }

  const names = candidates.status === 'loaded' ? candidates.names : [];
  return (
    <div className="related-contracts" data-testid={`related-${field.id}`}>
      {editing && candidates.status === 'failed' && <p role="status">{candidates.text}</p>}
      {groups.map((group, g) => (
        <fieldset key={g} className="related-contracts__group" aria-label={`${t('contractFormComplex.relatedContracts.relationType')} ${g + 1}`}>
          {group.relatedContracts.map((row, r) => {
            const message = rowMessage(g, r);
            return (
              <div key={r} className="related-contracts__row">
                <HTMLSelect
                  aria-label={`${t('contractFormComplex.relatedContracts.contract')} ${g + 1}.${r + 1}`}
                  disabled={!editing}
                  value={row.contractName}
                  onChange={(event) =>
                    updateGroup(g, { ...group, relatedContracts: group.relatedContracts.map((x, i) => (i === r ? { ...x, contractName: event.currentTarget.value } : x)) })
                  }
                  options={[{ value: '', label: '--' }, ...[...new Set([...names, ...(row.contractName ? [row.contractName] : [])])].map((n) => ({ value: n, label: n }))]}
                />
                <HTMLSelect
                  aria-label={`${t('contractFormComplex.relatedContracts.relationship')} ${g + 1}.${r + 1}`}
                  disabled={!editing}
                  value={row.relationshipID}
                  onChange={(event) =>
                    updateGroup(g, { ...group, relatedContracts: group.relatedContracts.map((x, i) => (i === r ? { ...x, relationshipID: Number(event.currentTarget.value) } : x)) })
                  }
                  options={[{ value: 0, label: '--' }, ...relationships]}
                />
                {editing && (
                  <Button
                    variant="minimal"
                    icon="trash"
                    aria-label={t('form.delete')}
                    onClick={() => updateGroup(g, { ...group, relatedContracts: group.relatedContracts.filter((_, i) => i !== r) })}
                  />
                )}
                {message && <span role="alert">{formMessageText(t, message.message)}</span>}
              </div>
            );
          })}
          {editing && (
            <>
              <Button
                variant="minimal"
                icon="add"
                text={t('contractFormComplex.relatedContracts.addContract')}
                onClick={() => updateGroup(g, { ...group, relatedContracts: [...group.relatedContracts, { contractName: '', relationshipID: 0 }] })}
              />
              <Button variant="minimal" text={t('contractFormComplex.relatedContracts.removeGroup')} onClick={() => change(groups.filter((_, i) => i !== g))} />
            </>
          )}
          {groupMessage(g) && <p role="alert">{formMessageText(t, groupMessage(g)!.message)}</p>}
        </fieldset>
      ))}
      {editing && (
        <Button
          icon="add"
          text={t('contractFormComplex.relatedContracts.addGroup')}
          onClick={() => change([...groups, { relationType: relatedCandidatesQuery.relationType, relatedContracts: [{ contractName: '', relationshipID: 0 }] }])}
        />
      )}
    </div>
  );
}
