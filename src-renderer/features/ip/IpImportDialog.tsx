import { useMemo, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, ProgressBar } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { ipTypes, type IpType } from '../../../src-shared/domain/intellectual-property';
import { toAppError, type AppError, type FieldIssue } from '../../../src-shared/errors';
import { languageForLocale } from '../../../src-shared/i18n/languages';
import { checkIpImportRows, ipImportIssueRow, ipImportRowsFromCsv, type IpImportRowCheck } from '../../../src-shared/rules/ip-import';
import { errorText } from '../../i18n/errorText';
import { Pager } from '../ledger/Pager';
import { ManagedTable } from '../manage/ManagedList';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCachedFetch } from '../cached-reads/useCachedRead';
import { usePaging } from '../manage/usePaging';
import { fileIssueText, rowIssueText } from './importText';
import { ipLabels } from './ipLabels';

// The import of rights from the server's CSV template (issue 15, item 5). The server takes a
// file all or nothing; here each row is first checked with the server's own rules
// (src-shared/rules/ip-import.ts) and shown with its errors, nothing is written until the user
// confirms, and then only the good rows are sent. A refusal of the server (a number registered
// meanwhile) comes back onto its rows, and nothing was written.

type Phase = { kind: 'preview' } | { kind: 'writing' } | { kind: 'done'; imported: number } | { kind: 'refused'; message: string };

/** Downloads the template of the chosen type (the server gives it as a data: URL). */
function TemplateDownload() {
  const { t, i18n } = useTranslation();
  const labels = ipLabels(t);
  const fetchRead = useCachedFetch();
  const [type, setType] = useState<IpType>('patent');
  const [failure, setFailure] = useState<string | null>(null);

  async function download() {
    setFailure(null);
    try {
      const { value } = await fetchRead('ipTemplateUrl', { query: { type, language: languageForLocale(i18n.language) } });
      const text = decodeURIComponent(value.url.slice(value.url.indexOf(',') + 1));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      link.download = value.fileName;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (cause) {
      setFailure(errorText(t, toAppError(cause)));
    }
  }

  return (
    <FormGroup label={t('manage.ip.import.template')} labelFor="ip-import-template-type" helperText={failure ?? t('manage.ip.import.templateHint')} intent={failure ? 'danger' : 'none'}>
      <div className="manage__header">
        <HTMLSelect id="ip-import-template-type" value={type} options={ipTypes.map((value) => ({ value, label: labels.type(value) }))} onChange={(event) => setType(event.currentTarget.value as IpType)} />
        <Button icon="download" text={t('manage.ip.import.downloadTemplate')} onClick={() => void download()} data-testid="ip-import-template" />
      </div>
    </FormGroup>
  );
}

export function IpImportDialog({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation();
  const labels = ipLabels(t);
  const write = useServerWrite();
  const organisations = useServerRead('ipOrganizationList');
  const paging = usePaging();
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileIssue, setFileIssue] = useState<string | null>(null);
  const [rows, setRows] = useState<IpImportRowCheck[] | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'preview' });

  const good = useMemo(() => rows?.filter((row) => row.valid) ?? [], [rows]);
  const bad = (rows?.length ?? 0) - good.length;

  async function choose(file: File | undefined) {
    setRows(null);
    setFileIssue(null);
    setPhase({ kind: 'preview' });
    paging.setPageNum(1);
    if (!file) return;
    setFileName(file.name);
    const read = ipImportRowsFromCsv(await file.text());
    if ('issue' in read) {
      setFileIssue(fileIssueText(t, i18n.language, read.issue));
      return;
    }
    const list = organisations.answer?.value.list ?? [];
    // The register's numbers are the server's to check (at confirmation): the preview knows the organisations.
    setRows(checkIpImportRows(read.rows, { organisationIdByName: new Map(list.map((o) => [o.name, o.id])), registered: new Set() }));
  }

  async function confirm() {
    if (!rows) return;
    setPhase({ kind: 'writing' });
    try {
      const { imported } = await write('ipImport', { body: { rows: good.map((row) => row.raw) } });
      setPhase({ kind: 'done', imported });
    } catch (cause) {
      const error: AppError = toAppError(cause as AppError | SerializedError);
      // The server numbers the rows it was sent: give each issue back to its row of the file.
      const issuesBySent = new Map<number, FieldIssue[]>();
      for (const issue of error.issues ?? []) {
        const sent = ipImportIssueRow(issue.path);
        if (sent !== null) issuesBySent.set(sent, [...(issuesBySent.get(sent) ?? []), issue]);
      }
      const sentRows = new Map(good.map((row, index) => [row.row, index + 1]));
      setRows(rows.map((row) => {
        const refused = issuesBySent.get(sentRows.get(row.row) ?? -1);
        return refused ? { ...row, valid: null, issues: [...row.issues, ...refused] } : row;
      }));
      setPhase({ kind: 'refused', message: issuesBySent.size > 0 ? t('manage.ip.import.refusedRows') : errorText(t, error) });
    }
  }

  const typeLabel = (value: unknown) => {
    const type = ipTypes.find((known) => known === value);
    return type ? labels.type(type) : typeof value === 'string' ? value : '--';
  };
  const cell = (row: IpImportRowCheck, name: string) => (typeof row.raw[name] === 'string' ? (row.raw[name] as string) : '--');
  const shown = rows?.slice((paging.pageNum - 1) * paging.pageSize, paging.pageNum * paging.pageSize) ?? [];
  const writing = phase.kind === 'writing';

  return (
    <Dialog isOpen title={t('manage.ip.import.title')} onClose={writing ? undefined : onClose} style={{ width: 800 }}>
      <DialogBody>
        <TemplateDownload />
        <FormGroup label={t('manage.ip.import.file')} labelFor="ip-import-file" helperText={t('manage.ip.import.fileHint')}>
          <FileInput
            fill
            disabled={writing || phase.kind === 'done'}
            text={fileName ?? t('manage.ip.import.chooseFile')}
            buttonText={t('manage.ip.import.browse')}
            inputProps={{ id: 'ip-import-file', accept: '.csv,text/csv' }}
            onInputChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
        </FormGroup>
        {fileIssue && (
          <Callout intent="danger" icon="error" role="alert" data-testid="ip-import-file-issue">
            {fileIssue}
          </Callout>
        )}
        {rows && (
          <div className="manage" data-testid="ip-import-preview">
            <Callout intent={bad > 0 ? 'warning' : 'primary'} icon="th" data-testid="ip-import-summary">
              {t('manage.ip.import.summary', { count: rows.length, good: good.length, bad })}
            </Callout>
            <ManagedTable
              className="ip-import__table"
              rows={shown}
              rowKey={(row) => String(row.row)}
              rowTestId="ip-import-row"
              rowProps={(row) => ({ 'data-valid': row.valid ? 'true' : 'false' })}
              columns={[
                { header: t('manage.ip.import.row'), cell: (row) => row.row },
                { header: t('manage.ip.name'), wrap: true, cell: (row) => cell(row, 'name') },
                { header: t('manage.ip.type'), cell: (row) => typeLabel(row.raw.type) },
                { header: t('manage.ip.registrationNumber'), wrap: true, cell: (row) => cell(row, 'registrationNumber') },
                { header: t('manage.ip.owner'), wrap: true, cell: (row) => cell(row, 'ownerOrganizationName') },
                {
                  header: t('manage.ip.import.check'),
                  wrap: true,
                  cell: (row) =>
                    row.issues.length === 0 ? (
                      <span className="manage__muted">{t('manage.ip.import.ok')}</span>
                    ) : (
                      <ul className="ip-import__issues" data-testid="ip-import-issues">
                        {row.issues.map((issue) => (
                          <li key={`${issue.path}-${issue.message}`}>{rowIssueText(t, i18n.language, issue)}</li>
                        ))}
                      </ul>
                    ),
                },
              ]}
            />
            <Pager pageNum={paging.pageNum} pageSize={paging.pageSize} total={rows.length} onPageChange={paging.setPageNum} onPageSizeChange={paging.setPageSize} />
          </div>
        )}
        {writing && (
          <div data-testid="ip-import-progress">
            <p>{t('manage.ip.import.writing', { count: good.length })}</p>
            <ProgressBar intent="primary" />
          </div>
        )}
        {phase.kind === 'done' && (
          <Callout intent="success" icon="tick" data-testid="ip-import-result">
            {t('manage.ip.import.imported', { count: phase.imported, skipped: bad })}
          </Callout>
        )}
        {phase.kind === 'refused' && (
          <Callout intent="danger" icon="error" role="alert" data-testid="ip-import-result">
            {phase.message}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          phase.kind === 'done' ? (
            <Button intent="primary" text={t('manage.ip.import.close')} onClick={onClose} data-testid="ip-import-close" />
          ) : (
            <>
              <Button text={t('manage.cancel')} disabled={writing} onClick={onClose} />
              <Button
                intent="primary"
                icon="import"
                loading={writing}
                disabled={good.length === 0}
                text={t('manage.ip.import.confirm', { count: good.length })}
                onClick={() => void confirm()}
                data-testid="ip-import-confirm"
              />
            </>
          )
        }
      />
    </Dialog>
  );
}
