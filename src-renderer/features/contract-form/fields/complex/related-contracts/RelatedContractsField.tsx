import { Button, HTMLSelect, InputGroup, Menu, MenuItem } from '@blueprintjs/core';
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RelationGroup } from '../../../../../../src-shared/form/field-config';
import { relationshipChoices, validateRelatedContracts } from '../../../../../../src-shared/form/related-contracts';
import type { RelatedCandidates } from '../../../../../../src-shared/ipc/drafting';
import { formatDateTime } from '../../../../../i18n/format';
import type { FieldProps } from '../../../types';
import { callFailureText, formMessageText, useFormServices } from '../services';

// Related contracts (spec 3, spec 5, spec 7): relation groups of at least two contracts each. Each
// row's contract is searched by name or number (the server's contracts while online, this
// device's offline); its relationship is one of the field's options, else the built-in ones. The
// rule's messages show once the user has left the field or submitted the form, not before.

/** The relation type new groups get (spec 7: list_for_related is asked with relationType=3). */
export const newGroupRelationType = 3;
/** Searching waits for typing to pause. */
const searchDelayMs = 300;

type Search = { status: 'idle' } | { status: 'searching' } | { status: 'done'; answer: RelatedCandidates } | { status: 'failed'; text: string };

/** One row's contract: typed to search, chosen from the candidates. */
function ContractNamePicker({ label, value, disabled, onChange }: { label: string; value: string; disabled: boolean; onChange(name: string): void }) {
  const { t, i18n } = useTranslation();
  const services = useFormServices();
  const [typed, setTyped] = useState<string | null>(null);
  const [search, setSearch] = useState<Search>({ status: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  function type(text: string) {
    setTyped(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const id = ++latest.current;
      setSearch({ status: 'searching' });
      services.relatedCandidates(text.trim()).then(
        (answer) => id === latest.current && setSearch({ status: 'done', answer }),
        (failure: unknown) => id === latest.current && setSearch({ status: 'failed', text: callFailureText(t, failure) }),
      );
    }, searchDelayMs);
  }

  function choose(name: string) {
    clearTimeout(timer.current);
    latest.current += 1;
    setTyped(null);
    setSearch({ status: 'idle' });
    onChange(name);
  }

  // Leaving the input without choosing keeps the contract chosen before.
  function leave(event: FocusEvent<HTMLDivElement>) {
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    clearTimeout(timer.current);
    latest.current += 1;
    setTyped(null);
    setSearch({ status: 'idle' });
  }

  return (
    <div className="related-contracts__contract" onBlur={leave}>
      <InputGroup
        aria-label={label}
        disabled={disabled}
        leftIcon="search"
        placeholder={t('contractFormComplex.relatedContracts.searchPlaceholder')}
        value={typed ?? value}
        onValueChange={type}
        onFocus={() => typed === null && type(value)}
      />
      {search.status === 'searching' && <p className="party-picker__status">{t('contractFormComplex.parties.searching')}</p>}
      {search.status === 'failed' && <p role="status">{search.text}</p>}
      {search.status === 'done' && (
        <Menu aria-label={t('contractFormComplex.relatedContracts.candidates')} className="related-contracts__candidates">
          {search.answer.offline && (
            <MenuItem
              disabled
              icon="offline"
              data-testid="related-candidates-as-of"
              text={
                search.answer.asOf === null
                  ? t('contractFormComplex.relatedContracts.offlineCandidates')
                  : t('contractFormComplex.relatedContracts.offlineCandidatesAsOf', { time: formatDateTime(search.answer.asOf, i18n.language) })
              }
            />
          )}
          {search.answer.list.length === 0 && <MenuItem disabled text={t('form.noData')} />}
          {search.answer.list.map((candidate) => (
            <MenuItem key={candidate.id} text={candidate.name} label={candidate.contractNumber ?? undefined} onClick={() => choose(candidate.name)} />
          ))}
        </Menu>
      )}
    </div>
  );
}

export function RelatedContractsField({ field, value, mode, error, onChange, onBlur }: FieldProps<RelationGroup[]>) {
  const { t } = useTranslation();
  const groups = value ?? [];
  const [left, setLeft] = useState(false);
  const editing = mode === 'edit';

  const relationships = relationshipChoices(field.options).map((choice) => ({
    value: choice.id,
    label: choice.name ?? t(`contractFormComplex.relatedContracts.relationships.${choice.key!}`),
  }));
  const relationshipName = (id: number) => relationships.find((r) => r.value === id)?.label ?? '--';
  // The rule speaks once the user has left the field, or the form was submitted (the engine's message).
  const issues = left || error !== null ? validateRelatedContracts(groups) : [];
  const groupMessage = (group: number) => issues.find((i) => i.group === group && i.row === undefined);
  const rowMessage = (group: number, row: number) => issues.find((i) => i.group === group && i.row === row);
  const updateGroup = (at: number, group: RelationGroup) => onChange(groups.map((g, i) => (i === at ? group : g)));
  const updateRow = (g: number, r: number, patch: Partial<RelationGroup['relatedContracts'][number]>) => {
    const group = groups[g]!;
    updateGroup(g, { ...group, relatedContracts: group.relatedContracts.map((x, i) => (i === r ? { ...x, ...patch } : x)) });
  };

  function leave(event: FocusEvent<HTMLDivElement>) {
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setLeft(true);
    onBlur?.();
  }

  if (mode === 'preview') {
    return (
      <ul className="related-contracts" data-testid={`related-${field.id}`}>
        {groups.length === 0 && <li>--</li>}
        {groups.map((group, g) => (
          <li key={g}>
            {group.relatedContracts.map((row) => `${row.contractName} (${relationshipName(row.relationshipID)})`).join(t('contractForm.listSeparator'))}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="related-contracts" data-testid={`related-${field.id}`} onBlur={editing ? leave : undefined}>
      {groups.map((group, g) => (
        <fieldset key={g} className="related-contracts__group" aria-label={t('contractFormComplex.relatedContracts.group', { index: g + 1 })}>
          {group.relatedContracts.map((row, r) => {
            const message = rowMessage(g, r);
            return (
              <div key={r} className="related-contracts__row">
                <ContractNamePicker
                  label={`${t('contractFormComplex.relatedContracts.contract')} ${g + 1}.${r + 1}`}
                  value={row.contractName}
                  disabled={!editing}
                  onChange={(contractName) => updateRow(g, r, { contractName })}
                />
                <HTMLSelect
                  aria-label={`${t('contractFormComplex.relatedContracts.relationship')} ${g + 1}.${r + 1}`}
                  disabled={!editing}
                  value={row.relationshipID}
                  onChange={(event) => updateRow(g, r, { relationshipID: Number(event.currentTarget.value) })}
                  options={[{ value: 0, label: t('contractFormComplex.relatedContracts.chooseRelationship') }, ...relationships]}
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
              <Button variant="minimal" text={t('contractFormComplex.relatedContracts.removeGroup')} onClick={() => onChange(groups.filter((_, i) => i !== g))} />
            </>
          )}
          {groupMessage(g) && <p role="alert">{formMessageText(t, groupMessage(g)!.message)}</p>}
        </fieldset>
      ))}
      {editing && (
        <Button
          icon="add"
          text={t('contractFormComplex.relatedContracts.addGroup')}
          onClick={() =>
            onChange([
              ...groups,
              {
                relationType: newGroupRelationType,
                relatedContracts: [
                  { contractName: '', relationshipID: 0 },
                  { contractName: '', relationshipID: 0 },
                ],
              },
            ])
          }
        />
      )}
    </div>
  );
}
