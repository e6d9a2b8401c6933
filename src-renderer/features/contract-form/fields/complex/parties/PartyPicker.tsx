import { Button, Callout, InputGroup, Menu, MenuItem, Tag } from '@blueprintjs/core';
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PartyType } from '../../../../../../src-shared/domain/enums';
import type { FormField, PartyValue } from '../../../../../../src-shared/form/field-config';
import { formMessage, type FormIssue, type FormMessage } from '../../../../../../src-shared/form/messages';
import {
  addParty,
  counterpartSearchDebounceMs,
  counterpartSearchQuery,
  maxPartiesPerField,
  newBlankParty,
  newPartyId,
  partyDetailValues,
  partyFieldKey,
  partyFromSearchResult,
  partyRisk,
  partyToScore,
  selectCounterparts,
  showsPartyDetailLink,
  validateRequiredParty,
} from '../../../../../../src-shared/form/parties';
import type { PartySearchResult } from '../../../../../../src-shared/ipc/drafting';
import { fieldInputId } from '../../../ids';
import type { FieldProps } from '../../../types';
import { callFailureText, formMessageText, useContractFormContext, useFormServices, useRegisterValidator } from '../services';
import { PartyDetailDialog } from './PartyDetailDialog';
import { ScoreDialog } from './ScoreDialog';

// The party (counterpart) pickers inputSelect and inputSelectV2 (spec 2, 3, 4, 5, 9).

/** The party validator the engine runs on submit, besides the required rule it owns. */
export function partyIssues(field: FormField, value: unknown): FormIssue[] {
  const parties = Array.isArray(value) ? (value as PartyValue[]) : [];
  const selected = selectCounterparts(parties, field.counterpartMultiple);
  if (!selected.ok) return [{ field: field.id, message: selected.message }];
  if (field.required || parties.length === 0) return [];
  const nameless = validateRequiredParty({ ...field, required: true }, parties);
  return nameless ? [{ field: field.id, message: nameless }] : [];
}

/** A link acting as a button opens with the keys a button does. */
const opensWithKey = (key: string) => key === 'Enter' || key === ' ';

type SearchState = { status: 'idle' } | { status: 'searching' } | { status: 'done'; results: PartySearchResult[] } | { status: 'failed'; text: string };

export function PartyPicker({ field, value, mode, onChange, onBlur }: FieldProps<PartyValue[]>) {
  const { t } = useTranslation();
  const services = useFormServices();
  const form = useContractFormContext();
  const parties = value ?? [];
  const partyType = field.partyType ?? PartyType.Outer;
  const external = partyType === PartyType.Outer;
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState<SearchState>({ status: 'idle' });
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [detailOf, setDetailOf] = useState<PartyValue | null>(null);
  const [scoring, setScoring] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  /** The warning about the counterparty just chosen (blacklisted or with risks), until another is chosen. */
  const [riskWarning, setRiskWarning] = useState<string | null>(null);
  /** The row 'new party' just added, where its name is typed next. */
  const [typingNameAt, setTypingNameAt] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latestSearch = useRef(0);

  useRegisterValidator(field.id, (values) => partyIssues(field, values[field.id]));
  useEffect(() => () => clearTimeout(timer.current), []);

  function change(next: PartyValue[]) {
    const selected = selectCounterparts(next, field.counterpartMultiple);
    if (!selected.ok) return setMessage(selected.message);
    setMessage(null);
    setRiskWarning(null);
    onChange(selected.value);
  }

  function add(party: PartyValue): boolean {
    const added = addParty(parties, party, field.counterpartMultiple);
    if (!added.ok) {
      setMessage(added.message);
      return false;
    }
    change(added.value);
    return true;
  }

  function type(text: string) {
    setTyped(text);
    clearTimeout(timer.current);
    const query = counterpartSearchQuery(text, partyType);
    if (!query) return setSearch({ status: 'idle' });
    // Searching waits until typing pauses for 750 ms (spec 9); only the newest answer is shown.
    timer.current = setTimeout(() => {
      const id = ++latestSearch.current;
      setSearch({ status: 'searching' });
      services.searchParties({ keyword: query.abbr, partyType: query.type, pageNum: 1, pageSize: maxPartiesPerField }).then(
        (page) => id === latestSearch.current && setSearch({ status: 'done', results: page.list }),
        (failure: unknown) => id === latestSearch.current && setSearch({ status: 'failed', text: callFailureText(t, failure) }),
      );
    }, counterpartSearchDebounceMs);
  }

  /** A chosen counterpart: its details fill the party and its detail fields; a blacklisted or risky one is named in a warning. */
  function choose(result: PartySearchResult) {
    setTyped('');
    setSearch({ status: 'idle' });
    if (!add(partyFromSearchResult(result))) return;
    const groups = services.organisationId === undefined ? [field.id] : [field.id, partyFieldKey(services.organisationId)];
    form.changeValues(partyDetailValues(form.fields, groups, result));
    const risk = partyRisk(result.fieldDetailMap);
    setRiskWarning(risk && t(`contractFormComplex.parties.risk.${risk}`, { name: result.name, count: Number(result.fieldDetailMap?.riskCount ?? 0) }));
  }

  function rename(at: number, name: string) {
    onChange(parties.map((p, i) => (i === at ? { ...p, name } : p)));
  }

  function openScore() {
    const party = partyToScore(parties);
    if (!party.ok) return setMessage(party.message);
    setScoring(true);
  }

  // The field is left (and checked, spec 5) only when focus goes outside it: moving from the search
  // to 'new party' and on into the new party's name is still filling it in.
  function leave(event: FocusEvent<HTMLDivElement>) {
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    onBlur?.();
  }

  const detailLink = external && showsPartyDetailLink(services.organizationShare);
  const editing = mode === 'edit';
  const label = (party: PartyValue) => party.name || formMessageText(t, formMessage('pleaseEnter', { name: field.name }));

  return (
    <div className="party-picker" data-testid={`party-picker-${field.id}`} onBlur={editing ? leave : undefined}>
      {parties.length === 0 && mode !== 'edit' && <span className="party-picker__empty">--</span>}
      {parties.map((party, at) =>
        editing && party.id === newPartyId ? (
          <InputGroup
            key={`new-${at}`}
            aria-label={t('contractFormComplex.parties.newPartyName')}
            autoFocus={at === typingNameAt}
            placeholder={formMessageText(t, formMessage('pleaseEnter', { name: field.name }))}
            value={party.name}
            onValueChange={(name) => rename(at, name)}
            rightElement={<Button variant="minimal" icon="cross" aria-label={t('form.delete')} onClick={() => change(parties.filter((_, i) => i !== at))} />}
          />
        ) : (
          <Tag
            key={String(party.id)}
            minimal
            onRemove={editing ? () => change(parties.filter((_, i) => i !== at)) : undefined}
          >
            {detailLink ? (
              <a role="button" tabIndex={0} onClick={() => setDetailOf(party)} onKeyDown={(event) => opensWithKey(event.key) && setDetailOf(party)}>
                {label(party)}
              </a>
            ) : (
              label(party)
            )}
          </Tag>
        ),
      )}
      {mode !== 'preview' && (
        <InputGroup
          id={fieldInputId(field.id)}
          aria-label={field.name}
          placeholder={field.placeholder ?? formMessageText(t, formMessage('pleaseEnter', { name: field.name }))}
          value={typed}
          disabled={!editing}
          onValueChange={type}
          rightElement={
            <Button
              variant="minimal"
              icon="add"
              disabled={!editing}
              text={t('contractFormComplex.parties.addNew')}
              onClick={() => {
                // A field of one party takes the new one in its place.
                setTypingNameAt(field.counterpartMultiple === 1 ? 0 : parties.length);
                add(newBlankParty());
              }}
            />
          }
        />
      )}
      {editing && search.status === 'searching' && <p className="party-picker__status">{t('contractFormComplex.parties.searching')}</p>}
      {editing && search.status === 'failed' && <p className="party-picker__status">{search.text}</p>}
      {editing && search.status === 'done' && (
        <Menu aria-label={t('contractFormComplex.parties.results')}>
          {search.results.length === 0 && <MenuItem disabled text={t('form.noData')} />}
          {search.results.map((result) => (
            <MenuItem
              key={String(result.id)}
              text={result.name}
              label={partyRisk(result.fieldDetailMap) ? t(`contractFormComplex.parties.riskLabel.${partyRisk(result.fieldDetailMap)!}`) : undefined}
              onClick={() => choose(result)}
            />
          ))}
        </Menu>
      )}
      {external && (
        <Button variant="minimal" icon="star" text={t('contractFormComplex.score.open')} disabled={mode === 'disabled'} onClick={openScore} />
      )}
      {message && <p className="form-field__error" role="alert">{formMessageText(t, message)}</p>}
      {editing && riskWarning && (
        <Callout intent="warning" icon="warning-sign" compact role="alert" data-testid={`party-risk-${field.id}`}>
          {riskWarning}
        </Callout>
      )}
      {detailOf && <PartyDetailDialog party={detailOf} onClose={() => setDetailOf(null)} />}
      {scoring && <ScoreDialog onClose={() => setScoring(false)} onSaved={setNotice} />}
      {notice && <p role="status">{notice}</p>}
    </div>
  );
}
