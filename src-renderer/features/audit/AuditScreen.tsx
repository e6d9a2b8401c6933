import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Button, Callout, Card, FormGroup, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { maxAuditExportRows, maxAuditRetentionDays, type AuditEvent, type AuditVerification } from '../../../src-shared/api/audit';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { showFailure, showNotice } from '../../app/toaster';
import { WorkbookExport, type ExportProgress } from '../../app/WorkbookExport';
import { errorText } from '../../i18n/errorText';
import { shownLanguage } from '../../i18n/language';
import { formatDateTime } from '../../i18n/format';
import { DateInput } from '../../i18n/DateInput';
import { useOnlineWrite } from '../cached-reads/useCachedRead';
import { bridgeOf, invoke } from '../contracts/useBridgeFormServices';
import { failureText } from '../manage/issues';
import { useServerRead } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import '../manage/manage.css';
import { auditWords, useContractFormLabel, useDeviceText } from './auditWords';
import { FilterPicker, type PickerEntry } from './FilterPicker';
import './audit.css';

// The audit trail (issue 32, item 4; System settings → Audit): the organisation's events for
// administrators, filtered (users and devices picked from the organisation's) and paged on the
// server, exported to Excel by the core, the hash chain's check and the retention. Online only:
// the events are not kept on the device.

const pageSize = 100;

interface Filters {
  userId: string;
  device: string;
  entity: string;
  entityId: string;
  from: string;
  to: string;
}

const noFilters: Filters = { userId: '', device: '', entity: '', entityId: '', from: '', to: '' };

/** The filters as the route's query: empty ones left out, dates as the start of that day (local time). */
function filterQuery(filters: Filters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of ['userId', 'device', 'entity', 'entityId'] as const) if (filters[key].trim()) query[key] = filters[key].trim();
  for (const key of ['from', 'to'] as const) if (filters[key]) query[key] = new Date(`${filters[key]}T00:00:00`).toISOString();
  return query;
}

function eventsQuery(filters: Filters, pageNum: number): Record<string, string | number> {
  return { pageNum, pageSize, ...filterQuery(filters) };
}

/** A form field of a contract is named by the contract's template where this device keeps it. */
const namesFormFields = (event: AuditEvent) => event.entity === 'contract' && event.entityId !== null && Object.keys(event.changes).some((field) => field.startsWith('formValues.'));

function ChangesCell({ event, language }: { event: AuditEvent; language: string }) {
  const formLabel = useContractFormLabel(namesFormFields(event) ? event.entityId : null);
  const words = auditWords(language);
  return (
    <span className="audit__changes" title={words.changes(event, formLabel)}>
      {words.fields(event.changes, formLabel)}
    </span>
  );
}

export function AuditScreen() {
  const { t, i18n } = useTranslation();
  const words = auditWords(i18n.language);
  const user = useCurrentUser();
  const call = useOnlineWrite();
  const isAdmin = user?.role === 'admin';
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [pageNum, setPageNum] = useState(1);
  // The page with the query it answers: a page of other filters is not shown as this one's.
  const [answered, setAnswered] = useState<{ query: string; list: AuditEvent[]; count: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [verification, setVerification] = useState<AuditVerification | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [retention, setRetention] = useState('');
  const dispatch = useAppDispatch();
  const { data: directory } = api.endpoints.directory.useQuery(undefined, { skip: !isAdmin });
  const devices = useServerRead('adminDevices', {}, { skip: !isAdmin });
  const userEntries = useMemo<PickerEntry[]>(() => (directory?.users ?? []).map((person) => ({ id: person.id, label: person.name, detail: person.department?.name })), [directory]);
  const deviceEntries = useMemo<PickerEntry[]>(
    () => (devices.answer?.value ?? []).map((device) => ({ id: device.id, label: device.name, detail: device.userDisplayName })),
    [devices.answer],
  );
  const deviceText = useDeviceText();
  const onExportProgress = useCallback((listener: (progress: ExportProgress) => void) => dispatch(bridgeOf).on('audit.exportProgress', listener), [dispatch]);

  const fail = useCallback((cause: unknown) => failureText(t, cause as AppError | SerializedError), [t]);

  useEffect(() => {
    if (!isAdmin) return undefined;
    let current = true;
    const query = eventsQuery(filters, pageNum);
    call('auditEvents', { query })
      .then((answer) => current && (setAnswered({ query: JSON.stringify(query), ...answer }), setError(null)))
      .catch((cause: unknown) => current && setError(fail(cause)));
    return () => {
      current = false;
    };
  }, [call, fail, filters, pageNum, isAdmin]);

  useEffect(() => {
    if (!isAdmin) return;
    call('auditSettings', {}).then((settings) => setRetention(String(settings.retentionDays)), () => undefined);
  }, [call, isAdmin]);

  if (!isAdmin) {
    return (
      <section className="manage" data-testid="audit-screen">
        <h2 className="manage__title">{t('audit.title')}</h2>
        <Callout compact icon="lock">{t('audit.adminsOnly')}</Callout>
      </section>
    );
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters(draft);
    setPageNum(1);
  }

  async function verify() {
    setVerifying(true);
    try {
      setVerification(await call('auditVerify', {}));
    } catch (cause) {
      showFailure(fail(cause));
    } finally {
      setVerifying(false);
    }
  }

  async function saveRetention() {
    const days = Number(retention);
    if (!Number.isInteger(days) || days < 1 || days > maxAuditRetentionDays) {
      showFailure(t('audit.retentionInvalid', { max: maxAuditRetentionDays }));
      return;
    }
    try {
      await call('auditSettingsUpdate', { body: { retentionDays: days } });
      showNotice(t('audit.retentionSaved'));
    } catch (cause) {
      showFailure(fail(cause));
    }
  }

  const field = (key: keyof Filters) => (
    <FormGroup label={t(`audit.filters.${key === 'userId' ? 'user' : key}`)} labelFor={`audit-filter-${key}`} className="audit__filter">
      {key === 'userId' || key === 'device' ? (
        <FilterPicker
          id={`audit-filter-${key}`}
          testId={`audit-filter-${key}`}
          entries={key === 'userId' ? userEntries : deviceEntries}
          value={draft[key]}
          onChange={(id) => setDraft({ ...draft, [key]: id })}
          anyText={t(key === 'userId' ? 'audit.filters.userAny' : 'audit.filters.deviceAny')}
          searchText={t('audit.filters.userSearch')}
          noMatchText={t('audit.filters.noMatch')}
        />
      ) : key === 'from' || key === 'to' ? (
        <DateInput id={`audit-filter-${key}`} label={t(`audit.filters.${key}`)} value={draft[key]} onChange={(day) => setDraft({ ...draft, [key]: day ?? '' })} />
      ) : (
        <InputGroup id={`audit-filter-${key}`} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })} data-testid={`audit-filter-${key}`} />
      )}
    </FormGroup>
  );
  const page = answered?.query === JSON.stringify(eventsQuery(filters, pageNum)) ? answered : null;
  const pages = page ? Math.max(1, Math.ceil(page.count / pageSize)) : 1;
  const tooMany = page !== null && page.count > maxAuditExportRows;

  return (
    <section className="manage audit" data-testid="audit-screen">
      <h2 className="manage__title">{t('audit.title')}</h2>
      <Card className="audit__tools">
        <Button icon="endorsed" loading={verifying} text={t('audit.verify')} onClick={() => void verify()} data-testid="audit-verify" />
        {verification && (
          <Callout compact intent={verification.intact ? 'success' : 'danger'} data-testid="audit-verification" role="status">
            {verification.problem
              ? t('audit.broken', { seq: verification.problem.seq, message: verification.problem.message })
              : verification.fromSeq === null ? t('audit.intactEmpty') : t('audit.intact', { checked: verification.checked, from: verification.fromSeq })}
          </Callout>
        )}
        <FormGroup inline label={t('audit.retention')} labelFor="audit-retention" className="audit__retention">
          <InputGroup id="audit-retention" value={retention} onChange={(e) => setRetention(e.currentTarget.value)} data-testid="audit-retention" style={{ width: 90 }} />
          <Button text={t('audit.retentionSave')} onClick={() => void saveRetention()} data-testid="audit-retention-save" />
        </FormGroup>
      </Card>
      <form className="audit__filters" onSubmit={apply}>
        {field('userId')}
        {field('device')}
        {field('entity')}
        {field('entityId')}
        {field('from')}
        {field('to')}
        <Button type="submit" intent="primary" text={t('audit.filters.apply')} data-testid="audit-filter-apply" />
        <Button text={t('audit.filters.clear')} onClick={() => (setDraft(noFilters), setFilters(noFilters), setPageNum(1))} />
        <div className="audit__export">
          <WorkbookExport
            testId="audit-export"
            disabled={!page || page.count === 0 || tooMany || error !== null}
            texts={{
              button: t('audit.export.button'),
              title: t('audit.export.title'),
              preparing: t('audit.export.preparing'),
              progress: ({ written, total }) => t('audit.export.progress', { written, total }),
              done: (count) => t('audit.export.done', { count }),
              failed: (failure) => (failure.code === 'offline' ? t('audit.export.offline') : `${t('audit.export.failed')} ${errorText(t, failure)}`),
            }}
            fileName={() => t('audit.export.fileName')}
            onProgress={onExportProgress}
            write={(exportId) => invoke(dispatch(bridgeOf), 'audit.export', { exportId, filters: filterQuery(filters), language: shownLanguage(i18n.language) })}
            read={(exportId, offset) => invoke(dispatch(bridgeOf), 'audit.exportRead', { exportId, offset })}
          >
            <span className={tooMany ? 'bp6-text-small audit__export-note--over' : 'bp6-text-small bp6-text-muted'} data-testid="audit-export-note">
              {tooMany ? t('audit.export.tooMany', { matching: page?.count.toLocaleString(i18n.language), max: maxAuditExportRows.toLocaleString(i18n.language) }) : t('audit.export.note', { max: maxAuditExportRows.toLocaleString(i18n.language) })}
            </span>
          </WorkbookExport>
        </div>
      </form>
      {error && <Callout intent="danger" icon="error" role="alert">{error}</Callout>}
      {!error && !page && <Spinner className="manage__loading" />}
      {page && page.list.length === 0 && <NonIdealState icon="history" title={t('audit.empty')} />}
      {page && page.list.length > 0 && (
        <>
          <div className="audit__table">
            <HTMLTable compact striped data-testid="audit-events">
              <thead>
                <tr>
                  {(['seq', 'appliedAt', 'editedAt', 'user', 'device', 'entity', 'action', 'changes'] as const).map((column) => <th key={column}>{t(`audit.columns.${column}`)}</th>)}
                </tr>
              </thead>
              <tbody>
                {page.list.map((event) => (
                  <tr key={event.seq} data-testid="audit-event">
                    <td>{event.seq}</td>
                    <td>{formatDateTime(event.appliedAt, i18n.language)}</td>
                    <td>{event.editedAt ? formatDateTime(event.editedAt, i18n.language) : ''}</td>
                    <td>{event.userName}</td>
                    <td className="audit__device" data-testid="audit-device">{deviceText(event.device)}</td>
                    <td>{words.entity(event.entity)}{event.entityId ? ` ${event.entityId.slice(-8)}` : ''}</td>
                    <td data-testid="audit-action">{words.action(event.action)}</td>
                    <td data-testid="audit-changes"><ChangesCell event={event} language={i18n.language} /></td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <div className="audit__pager">
            <span>{t('audit.count', { count: page.count })}</span>
            <Button icon="chevron-left" disabled={pageNum <= 1} onClick={() => setPageNum(pageNum - 1)} aria-label={t('audit.previous')} data-testid="audit-previous" />
            <span>{t('audit.page', { page: pageNum, pages })}</span>
            <Button icon="chevron-right" disabled={pageNum >= pages} onClick={() => setPageNum(pageNum + 1)} aria-label={t('audit.next')} data-testid="audit-next" />
          </div>
        </>
      )}
    </section>
  );
}
