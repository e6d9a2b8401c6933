import { useState } from 'react';
import { AnchorButton, Button, Callout, HTMLSelect, Tab, Tabs, Tooltip } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { templateSummarySchema } from '../../../src-shared/api/contract-forms';
import { ContractStatus, contractStatuses } from '../../../src-shared/domain/enums';
import type { AppError } from '../../../src-shared/errors';
import type { z } from 'zod';
import { LinkButton } from '../../app/LinkButton';
import { showFailure, showNotice } from '../../app/toaster';
import { formatDateTime } from '../../i18n/format';
import { useCachedFetch } from '../cached-reads/useCachedRead';
import { ContractStatusCell } from '../ledger/ContractStatusCell';
import { DeleteAlert } from '../manage/DeleteAlert';
import { failureText } from '../manage/issues';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { usePaging } from '../manage/usePaging';
import { changeRefusal } from './changeRefusal';
import { editorPath, templateApprovalPath } from './paths';
import { requestBody, draftOf } from './templateDraft';
import '../manage/manage.css';
import './templates.css';

// The templates screen (issue 29): every template of the organisation with its status, number,
// contract type and update time; create, edit, copy and delete where the server's rules allow
// them (and why not, where they do not); and the templates awaiting approval, which approvers
// open from here. Reads are kept for offline reading "as of" their time; writes are online only.

type Summary = z.infer<typeof templateSummarySchema>;
type ListTab = 'all' | 'pending';

/** Delete, or (where the server's rules refuse it) a disabled button saying why on hover and focus. */
function DeleteButton({ why, onClick }: { why: string | null; onClick(): void }) {
  const { t } = useTranslation();
  const text = t('templates.actions.delete');
  if (why === null) return <Button variant="minimal" intent="danger" icon="trash" text={text} data-testid="template-delete" onClick={onClick} />;
  return (
    <Tooltip content={why} placement="top">
      <AnchorButton variant="minimal" icon="trash" text={text} disabled data-testid="template-delete" aria-description={why} />
    </Tooltip>
  );
}

function TemplateTable({ tab }: { tab: ListTab }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const paging = usePaging();
  const [status, setStatus] = useState<ContractStatus | ''>('');
  const shownStatus = tab === 'pending' ? ContractStatus.UnderApproval : status;
  const read = useServerRead('templateList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q, status: shownStatus === '' ? undefined : shownStatus } });
  const types = useServerRead('contractTypeList');
  const write = useServerWrite();
  const fetchCached = useCachedFetch();
  const [deleting, setDeleting] = useState<Summary | null>(null);
  const typeName = (id: string | null) => (id === null ? t('templates.noContractType') : (types.answer?.value.list.find((type) => type.id === id)?.name ?? id));
  const isAdmin = user?.role === 'admin';

  async function copy(template: Summary) {
    try {
      const { value } = await fetchCached('templateDetail', { params: { id: template.id } });
      const name = t('templates.copyName', { name: value.name });
      // A copy is a new draft: its own number from the rules, the original's fields and clauses.
      const created = await write('createTemplate', { body: requestBody({ ...draftOf(value), name, templateNumber: '' }) });
      showNotice(t('templates.copied', { name }));
      void navigate(editorPath(created.id));
    } catch (cause) {
      showFailure(failureText(t, cause as AppError | SerializedError));
    }
  }

  const why = (template: Summary) => {
    const refusal = changeRefusal(template, user);
    return refusal === null ? null : t(`templates.why.${refusal}`);
  };

  return (
    <>
      <ListHeader search={{ placeholder: t('templates.search'), onSearch: paging.search, testId: 'templates-search' }}>
        {tab === 'all' && (
          <HTMLSelect
            aria-label={t('templates.status')}
            data-testid="templates-status"
            value={status}
            onChange={(event) => {
              setStatus(event.currentTarget.value === '' ? '' : (Number(event.currentTarget.value) as ContractStatus));
              paging.setPageNum(1);
            }}
            options={[
              { value: '', label: t('templates.anyStatus') },
              // Templates are never archived: the other four statuses.
              ...contractStatuses.filter((each) => each !== ContractStatus.Archived).map((each) => ({ value: each, label: t('contractStatus', { returnObjects: true })[each] })),
            ]}
          />
        )}
      </ListHeader>
      {tab === 'pending' && (
        <Callout compact icon="endorsed" data-testid="templates-pending-note">
          {t('templates.pendingNote')}
        </Callout>
      )}
      <ManagedList
        read={read}
        rows={(value) => value}
        paging={paging}
        empty={{ icon: tab === 'pending' ? 'endorsed' : 'document', title: tab === 'pending' ? t('templates.pendingEmpty') : t('templates.empty') }}
        rowKey={(template) => template.id}
        rowTestId="template-row"
        columns={[
          { header: t('templates.columns.name'), wrap: true, cell: (template) => template.name },
          { header: t('templates.columns.number'), cell: (template) => template.templateNumber ?? '--' },
          { header: t('templates.columns.contractType'), wrap: true, cell: (template) => typeName(template.contractTypeId) },
          { header: t('templates.columns.status'), cell: (template) => <ContractStatusCell status={template.status} /> },
          { header: t('templates.columns.updateTime'), cell: (template) => formatDateTime(template.updateTime, i18n.language) },
        ]}
        actions={(template) => (
          <>
            {tab === 'pending' && isAdmin ? (
              <LinkButton variant="minimal" icon="endorsed" intent="primary" text={t('templates.actions.review')} data-testid="template-review" to={templateApprovalPath(template.id)} />
            ) : why(template) === null ? (
              <LinkButton variant="minimal" icon="edit" text={t('templates.actions.edit')} data-testid="template-edit" to={editorPath(template.id)} />
            ) : (
              <LinkButton variant="minimal" icon="eye-open" text={t('templates.actions.view')} data-testid="template-view" to={editorPath(template.id)} />
            )}
            <Button variant="minimal" icon="duplicate" text={t('templates.actions.copy')} data-testid="template-copy" onClick={() => void copy(template)} />
            <DeleteButton why={why(template)} onClick={() => setDeleting(template)} />
          </>
        )}
      />
      {deleting && <DeleteAlert name={deleting.name} onClose={() => setDeleting(null)} onConfirm={() => write('deleteTemplate', { params: { id: deleting.id } })} />}
    </>
  );
}

/** /templates: all templates, or (`?tab=pending`) those awaiting approval. */
export function TemplatesScreen() {
  const { t } = useTranslation();
  const [query, setQuery] = useSearchParams();
  const tab: ListTab = query.get('tab') === 'pending' ? 'pending' : 'all';
  return (
    <section className="manage templates" data-testid="templates">
      <ListHeader title={t('templates.title')}>
        <LinkButton icon="add" intent="primary" text={t('templates.create')} data-testid="templates-create" to={editorPath(null)} />
      </ListHeader>
      <Tabs id="templates-tabs" selectedTabId={tab} onChange={(next) => setQuery(next === 'pending' ? { tab: 'pending' } : {}, { replace: true })}>
        <Tab id="all" title={t('templates.tabs.all')} data-testid="templates-tab-all" />
        <Tab id="pending" title={t('templates.tabs.pending')} data-testid="templates-tab-pending" />
      </Tabs>
      {/* A tab of its own paging and search: the key starts each afresh. */}
      <TemplateTable key={tab} tab={tab} />
    </section>
  );
}
