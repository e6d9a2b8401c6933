import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Counterparty, CounterpartyInput } from '../../../src-shared/api/counterparties';
import { CreditRating, PartySubtype, type PartyType } from '../../../src-shared/domain/enums';
import { bankAccountMessage, bankAccountProblem, counterpartyNameProblem } from '../../../src-shared/rules/counterparties';
import { showNotice } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import { toAppError } from '../../../src-shared/errors';
import { useOnlineWrite } from '../cached-reads/useCachedRead';
import type { counterpartiesEn } from '../../../src-shared/i18n/catalogs/counterparties';

// Create or edit a counterparty (spec 3 and 5): the name is required and each bank account is 9–24
// letters, digits, hyphens, dashes or underscores, shown on blur; Save waits for a valid form. Saving is
// online only: refused at once with 'offline' while the server is away.

interface Bank {
  name: string;
  account: string;
  accountName: string;
}

interface Draft {
  subtype: PartySubtype;
  name: string;
  idNumber: string;
  address: string;
  contactInfo: string;
  email: string;
  rating: CreditRating;
  ratingRemark: string;
  banks: Bank[];
}

const emptyBank: Bank = { name: '', account: '', accountName: '' };

function draftOf(party: Counterparty | null): Draft {
  return {
    subtype: party?.subtype ?? PartySubtype.Organization,
    name: party?.name ?? '',
    idNumber: party?.idNumber ?? '',
    address: party?.address ?? '',
    contactInfo: party?.contactInfo ?? '',
    email: party?.email ?? '',
    rating: party?.rating ?? CreditRating.None,
    ratingRemark: party?.ratingRemark ?? '',
    banks: party?.banks.map((bank) => ({ ...bank })) ?? [],
  };
}

type ProblemKey = `counterparties.messages.${keyof typeof counterpartiesEn.messages}`;
type Problems = Record<string, ProblemKey>;

/** The spec's messages by field path; the English text is the spec's, translated by key. */
function problemsOf(draft: Draft): Problems {
  const problems: Problems = {};
  if (counterpartyNameProblem(draft.name)) problems.name = 'counterparties.messages.nameRequired';
  draft.banks.forEach((bank, index) => {
    if (bank.name.trim() === '') problems[`banks.${index}.name`] = 'counterparties.messages.bankNameRequired';
    if (bankAccountProblem(bank.account) === bankAccountMessage) problems[`banks.${index}.account`] = 'counterparties.messages.bankAccount';
    if (bank.accountName.trim() === '') problems[`banks.${index}.accountName`] = 'counterparties.messages.accountNameRequired';
  });
  return problems;
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

interface CounterpartyDialogProps {
  type: PartyType;
  /** The party being edited; null creates one. */
  party: Counterparty | null;
  onClose(): void;
}

export function CounterpartyDialog({ type, party, onClose }: CounterpartyDialogProps) {
  const { t } = useTranslation();
  const write = useOnlineWrite();
  const [draft, setDraft] = useState<Draft>(() => draftOf(party));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const problems = problemsOf(draft);
  const touch = (path: string) => setTouched((current) => new Set(current).add(path));
  const shown = (path: string) => (touched.has(path) ? problems[path] : undefined);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const changeBank = (index: number, patch: Partial<Bank>) =>
    setDraft((current) => ({ ...current, banks: current.banks.map((bank, i) => (i === index ? { ...bank, ...patch } : bank)) }));

  async function save() {
    const body: CounterpartyInput = {
      type,
      subtype: draft.subtype,
      name: draft.name.trim(),
      keyword: party?.keyword ?? null,
      idNumber: orNull(draft.idNumber),
      address: orNull(draft.address),
      contactInfo: orNull(draft.contactInfo),
      email: orNull(draft.email),
      fax: party?.fax ?? null,
      rating: draft.rating,
      ratingRemark: orNull(draft.ratingRemark),
      isConnectedTransaction: party?.isConnectedTransaction ?? false,
      banks: draft.banks.map((bank) => ({ name: bank.name.trim(), account: bank.account.trim(), accountName: bank.accountName.trim() })),
      contacts: party?.contacts ?? [],
    };
    setSaving(true);
    try {
      if (party) await write('counterpartyUpdate', { params: { id: party.id }, body: { ...body, version: party.version } });
      else await write('counterpartyCreate', { body });
      showNotice(t('counterparties.saved'));
      onClose();
    } catch (failure) {
      setSaving(false);
      setFailure(errorText(t, toAppError(failure)));
    }
  }

  const field = (path: keyof Draft & string, label: string, testId: string, multiline = false) => {
    const problem = shown(path);
    const value = draft[path] as string;
    return (
      <FormGroup label={label} labelFor={testId} intent={problem ? 'danger' : 'none'} helperText={problem ? t(problem) : undefined}>
        {multiline ? (
          <TextArea id={testId} data-testid={testId} fill value={value} onChange={(e) => change({ [path]: e.currentTarget.value })} onBlur={() => touch(path)} />
        ) : (
          <InputGroup id={testId} data-testid={testId} value={value} intent={problem ? 'danger' : 'none'} onChange={(e) => change({ [path]: e.currentTarget.value })} onBlur={() => touch(path)} />
        )}
      </FormGroup>
    );
  };

  return (
    <Dialog isOpen onClose={onClose} title={t(party ? 'counterparties.editTitle' : 'counterparties.createTitle')} style={{ width: 640 }}>
      <DialogBody>
        <RadioGroup
          inline
          label={t('counterparties.fields.subtype')}
          selectedValue={draft.subtype}
          onChange={(e) => change({ subtype: Number(e.currentTarget.value) as PartySubtype })}
        >
          <Radio value={PartySubtype.Organization} label={t('contractFormComplex.partyDetail.subTypes.organization')} />
          <Radio value={PartySubtype.NaturalPerson} label={t('contractFormComplex.partyDetail.subTypes.naturalPerson')} />
        </RadioGroup>
        {field('name', t('counterparties.fields.name'), 'party-name')}
        {field('idNumber', t('counterparties.fields.idNumber'), 'party-id-number')}
        {field('address', t('counterparties.fields.address'), 'party-address')}
        {field('contactInfo', t('counterparties.fields.contactInfo'), 'party-contact')}
        {field('email', t('counterparties.fields.email'), 'party-email')}
        <FormGroup label={t('counterparties.fields.rating')} labelFor="party-rating">
          <HTMLSelect
            id="party-rating"
            data-testid="party-rating"
            value={draft.rating}
            options={Object.values(CreditRating).map((rating) => ({ value: rating, label: t('creditRating', { returnObjects: true })[rating] }))}
            onChange={(e) => change({ rating: Number(e.currentTarget.value) as CreditRating })}
          />
        </FormGroup>
        {field('ratingRemark', t('counterparties.fields.ratingRemark'), 'party-rating-remark', true)}
        <FormGroup label={t('counterparties.fields.banks')}>
          {draft.banks.map((bank, index) => (
            <div className="counterparty-bank" key={index} data-testid={`party-bank-${index}`}>
              {(['name', 'account', 'accountName'] as const).map((part) => {
                const path = `banks.${index}.${part}`;
                const problem = shown(path);
                const label = t(`counterparties.fields.${part === 'name' ? 'bankName' : part}`);
                return (
                  <FormGroup key={part} label={label} labelFor={`party-bank-${index}-${part}`} intent={problem ? 'danger' : 'none'} helperText={problem ? t(problem) : undefined}>
                    <InputGroup
                      id={`party-bank-${index}-${part}`}
                      data-testid={`party-bank-${index}-${part}`}
                      value={bank[part]}
                      intent={problem ? 'danger' : 'none'}
                      maxLength={part === 'account' ? 24 : 200}
                      onChange={(e) => changeBank(index, { [part]: e.currentTarget.value })}
                      onBlur={() => touch(path)}
                    />
                  </FormGroup>
                );
              })}
              <Button
                icon="trash"
                variant="minimal"
                aria-label={t('counterparties.fields.removeBank')}
                onClick={() => change({ banks: draft.banks.filter((_, i) => i !== index) })}
              />
            </div>
          ))}
          <Button icon="add" data-testid="party-add-bank" text={t('counterparties.fields.addBank')} onClick={() => change({ banks: [...draft.banks, { ...emptyBank }] })} />
        </FormGroup>
        {failure && (
          <Callout intent="danger" role="alert" data-testid="party-save-failure">
            {failure}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('counterparties.cancel')} onClick={onClose} />
            <Button intent="primary" data-testid="party-save" loading={saving} disabled={Object.keys(problems).length > 0} text={t('counterparties.save')} onClick={() => void save()} />
          </>
        }
      />
    </Dialog>
  );
}
