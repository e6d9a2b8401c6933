import { useState, type ReactNode } from 'react';
import { FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ipInputSchema, ipRecordInputSchema, type ipDetailSchema } from '../../../src-shared/api/intellectual-property';
import { ipRecordKinds, ipStatuses, ipTypes, type IpRecordKind, type IpStatus, type IpType } from '../../../src-shared/domain/intellectual-property';
import { nextIpStatuses } from '../../../src-shared/rules/intellectual-property';
import { DateInput } from '../../i18n/DateInput';
import { FormDialog } from '../manage/FormDialog';
import { fieldIssues } from '../manage/issues';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { ipLabels } from './ipLabels';

export type IpDetail = z.infer<typeof ipDetailSchema>;
export type IpRecord = IpDetail['records'][number];

/** A labelled field with the message of its issue beneath. */
function Field({ id, label, issue, required, children }: { id: string; label: string; issue?: string; required?: boolean; children: ReactNode }) {
  return (
    <FormGroup label={label} labelFor={id} labelInfo={required ? '*' : undefined} intent={issue ? 'danger' : 'none'} helperText={issue}>
      {children}
    </FormGroup>
  );
}

/**
 * Creates a right (`right` null; `onCreated` gets the new right) or edits one: its fields and
 * owner (a PUT replaces the whole right).
 */
export function IpEditDialog({ right, onClose, onCreated }: { right: IpDetail | null; onClose(): void; onCreated?(created: IpDetail): void }) {
  const { t } = useTranslation();
  const labels = ipLabels(t);
  const write = useServerWrite();
  const organizations = useServerRead('ipOrganizationList');
  const [fields, setFields] = useState({
    name: right?.name ?? '',
    type: right?.type ?? ipTypes[0],
    registrationNumber: right?.registrationNumber ?? '',
    ownerOrganizationId: right?.ownerOrganizationId ?? '',
    status: right?.status ?? ipStatuses[0],
    applicationDate: right?.applicationDate ?? null,
    registrationDate: right?.registrationDate ?? null,
    expirationDate: right?.expirationDate ?? null,
    remark: right?.remark ?? '',
  });
  const [issues, setIssues] = useState<Record<string, string>>({});
  const set = <K extends keyof typeof fields>(name: K) => (value: (typeof fields)[K]) => setFields((current) => ({ ...current, [name]: value }));
  const owners = organizations.answer?.value.list ?? (right ? [{ id: right.ownerOrganizationId, name: right.ownerOrganizationName }] : []);

  async function submit(): Promise<boolean> {
    const checked = ipInputSchema.safeParse({ ...fields, version: right?.version });
    if (!checked.success) {
      const found = fieldIssues(checked.error, t);
      // An owner not chosen yet is no UUID: the dialog asks for one in words.
      setIssues(found.ownerOrganizationId ? { ...found, ownerOrganizationId: t('manage.ip.chooseOrganization') } : found);
      return false;
    }
    if (right) await write('ipUpdate', { params: { id: right.id }, body: checked.data });
    else onCreated?.(await write('ipCreate', { body: checked.data }));
    return true;
  }

  const date = (name: 'applicationDate' | 'registrationDate' | 'expirationDate') => (
    <Field id={`ip-${name}`} label={t(`manage.ip.${name}`)} issue={issues[name]}>
      <DateInput id={`ip-${name}`} value={fields[name] ?? ''} invalid={Boolean(issues[name])} onChange={(value) => set(name)(value || null)} />
    </Field>
  );

  return (
    <FormDialog title={right ? t('manage.ip.editRight') : t('manage.ip.createRight')} width={600} onClose={onClose} onSubmit={submit}>
      <Field id="ip-name" label={t('manage.ip.name')} issue={issues.name} required>
        <InputGroup id="ip-name" value={fields.name} maxLength={200} onValueChange={set('name')} />
      </Field>
      <Field id="ip-type" label={t('manage.ip.type')}>
        <HTMLSelect id="ip-type" fill value={fields.type} options={ipTypes.map((value) => ({ value, label: labels.type(value) }))} onChange={(event) => set('type')(event.currentTarget.value as IpType)} />
      </Field>
      <Field id="ip-registrationNumber" label={t('manage.ip.registrationNumber')} issue={issues.registrationNumber} required>
        <InputGroup id="ip-registrationNumber" value={fields.registrationNumber} maxLength={100} onValueChange={set('registrationNumber')} />
      </Field>
      <Field id="ip-owner" label={t('manage.ip.owner')} issue={issues.ownerOrganizationId} required>
        <HTMLSelect
          id="ip-owner"
          fill
          value={fields.ownerOrganizationId}
          options={[...(right ? [] : [{ value: '', label: t('manage.ip.chooseOrganization') }]), ...owners.map((o) => ({ value: o.id, label: o.name }))]}
          onChange={(event) => set('ownerOrganizationId')(event.currentTarget.value)}
        />
      </Field>
      <Field id="ip-status" label={t('manage.ip.status')}>
        <HTMLSelect id="ip-status" fill value={fields.status} options={ipStatuses.map((value) => ({ value, label: labels.status(value) }))} onChange={(event) => set('status')(event.currentTarget.value as IpStatus)} />
      </Field>
      {date('applicationDate')}
      {date('registrationDate')}
      {date('expirationDate')}
      <Field id="ip-remark" label={t('manage.ip.remark')}>
        <TextArea id="ip-remark" value={fields.remark} maxLength={2000} fill rows={3} onChange={(event) => set('remark')(event.currentTarget.value)} />
      </Field>
    </FormDialog>
  );
}

/** Moves a right to another status; registering it needs its registration date. */
export function StatusDialog({ right, onClose }: { right: IpDetail; onClose(): void }) {
  const { t } = useTranslation();
  const labels = ipLabels(t);
  const write = useServerWrite();
  const choices = nextIpStatuses[right.status];
  const [status, setStatus] = useState<IpStatus | undefined>(choices[0]);
  const [registrationDate, setRegistrationDate] = useState(right.registrationDate ?? '');
  const [issue, setIssue] = useState<string | undefined>();

  async function submit(): Promise<boolean> {
    if (!status) return true;
    if (status === 'registered' && !registrationDate) {
      setIssue(t('manage.issues.registrationDate'));
      return false;
    }
    await write('ipStatus', { params: { id: right.id }, body: { status, ...(registrationDate ? { registrationDate } : {}), version: right.version } });
    return true;
  }

  return (
    <FormDialog title={t('manage.ip.changeStatus')} width={450} onClose={onClose} onSubmit={submit}>
      {status ? (
        <Field id="ip-new-status" label={t('manage.ip.newStatus', { status: labels.status(right.status) })}>
          <HTMLSelect id="ip-new-status" fill value={status} options={choices.map((value) => ({ value, label: labels.status(value) }))} onChange={(event) => setStatus(event.currentTarget.value as IpStatus)} />
        </Field>
      ) : (
        <p>{t('manage.ip.finalStatus', { status: labels.status(right.status) })}</p>
      )}
      {status === 'registered' && (
        <Field id="ip-status-registrationDate" label={t('manage.ip.registrationDate')} issue={issue} required>
          <DateInput id="ip-status-registrationDate" value={registrationDate} invalid={Boolean(issue)} onChange={(value) => setRegistrationDate(value ?? '')} />
        </Field>
      )}
    </FormDialog>
  );
}

/** Transfers a right to another organisation on a date, with the reason. */
export function TransferDialog({ right, onClose }: { right: IpDetail; onClose(): void }) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const organizations = useServerRead('ipOrganizationList');
  const others = (organizations.answer?.value.list ?? []).filter((o) => o.id !== right.ownerOrganizationId);
  const [toOrganizationId, setTo] = useState('');
  const [transferDate, setDate] = useState('');
  const [reason, setReason] = useState('');
  const [issues, setIssues] = useState<Record<string, string>>({});

  async function submit(): Promise<boolean> {
    const missing: Record<string, string> = {};
    if (!toOrganizationId) missing.to = t('manage.ip.chooseOrganization');
    if (!transferDate) missing.date = t('manage.ip.enterTransferDate');
    setIssues(missing);
    if (Object.keys(missing).length > 0) return false;
    await write('ipTransfer', { params: { id: right.id }, body: { toOrganizationId, transferDate, reason, version: right.version } });
    return true;
  }

  return (
    <FormDialog title={t('manage.ip.transfer')} width={450} onClose={onClose} onSubmit={submit}>
      <Field id="ip-transfer-to" label={t('manage.ip.transferTo')} issue={issues.to} required>
        <HTMLSelect
          id="ip-transfer-to"
          fill
          value={toOrganizationId}
          options={[{ value: '', label: t('manage.ip.chooseOrganization') }, ...others.map((o) => ({ value: o.id, label: o.name }))]}
          onChange={(event) => setTo(event.currentTarget.value)}
        />
      </Field>
      <Field id="ip-transfer-date" label={t('manage.ip.transferDate')} issue={issues.date} required>
        <DateInput id="ip-transfer-date" value={transferDate} invalid={Boolean(issues.date)} onChange={(value) => setDate(value ?? '')} />
      </Field>
      <Field id="ip-transfer-reason" label={t('manage.ip.reason')}>
        <TextArea id="ip-transfer-reason" value={reason} maxLength={2000} fill rows={3} onChange={(event) => setReason(event.currentTarget.value)} />
      </Field>
    </FormDialog>
  );
}

/** Adds or edits an entry of the right's history (a fee, a renewal, a licence…). */
export function RecordDialog({ rightId, record, onClose }: { rightId: string; record: IpRecord | null; onClose(): void }) {
  const { t } = useTranslation();
  const labels = ipLabels(t);
  const write = useServerWrite();
  const [fields, setFields] = useState({ kind: record?.kind ?? 'other', recordDate: record?.recordDate ?? '', title: record?.title ?? '', content: record?.content ?? '' });
  const [issues, setIssues] = useState<Record<string, string>>({});

  async function submit(): Promise<boolean> {
    const checked = ipRecordInputSchema.safeParse({ ...fields, version: record?.version });
    if (!checked.success) {
      setIssues(fieldIssues(checked.error, t));
      return false;
    }
    if (record) await write('ipRecordUpdate', { params: { id: rightId, recordId: record.id }, body: checked.data });
    else await write('ipRecordCreate', { params: { id: rightId }, body: checked.data });
    return true;
  }

  return (
    <FormDialog title={record ? t('manage.ip.editRecord') : t('manage.ip.addRecord')} onClose={onClose} onSubmit={submit}>
      <Field id="ip-record-kind" label={t('manage.ip.recordKind')}>
        <HTMLSelect
          id="ip-record-kind"
          fill
          value={fields.kind}
          options={ipRecordKinds.map((value) => ({ value, label: labels.recordKind(value) }))}
          onChange={(event) => setFields((current) => ({ ...current, kind: event.currentTarget.value as IpRecordKind }))}
        />
      </Field>
      <Field id="ip-record-date" label={t('manage.ip.recordDate')} issue={issues.recordDate ? t('manage.ip.enterRecordDate') : undefined} required>
        <DateInput id="ip-record-date" value={fields.recordDate} invalid={Boolean(issues.recordDate)} onChange={(value) => setFields((current) => ({ ...current, recordDate: value ?? '' }))} />
      </Field>
      <Field id="ip-record-title" label={t('manage.ip.recordTitle')} issue={issues.title} required>
        <InputGroup id="ip-record-title" value={fields.title} maxLength={200} onValueChange={(title) => setFields((current) => ({ ...current, title }))} />
      </Field>
      <Field id="ip-record-content" label={t('manage.ip.recordContent')}>
        <TextArea id="ip-record-content" value={fields.content} maxLength={4000} fill rows={3} onChange={(event) => setFields((current) => ({ ...current, content: event.currentTarget.value }))} />
      </Field>
    </FormDialog>
  );
}
