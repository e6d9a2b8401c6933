import { Button, Callout, Card, H2, H4, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { TemplateDetail } from '../../../src-shared/domain/contract-forms';
import { useTemplateApprovalStepMutation, useTemplateListQuery, useTemplateOnlineQuery } from '../../api/api';
import { LinkButton } from '../../app/LinkButton';
import { formatDateTime } from '../../i18n/format';
import { TemplateDocumentPreview } from '../contract-document/TemplateDocumentPreview';
import { DocumentMapping } from '../contract-document/TemplateDocumentSection';
import type { ContractFormHandle, FormServices } from '../contract-form';
import { ContractStatusCell } from '../ledger/ContractStatusCell';
import { ApprovalActions } from './ApprovalActions';
import { templateFormFields } from './draftValues';
import { DraftForm } from './DraftForm';
import { ScreenState } from './ScreenState';
import { useBridgeFormServices } from './useBridgeFormServices';

const route = '/templateApproval/detail';

/** The template's Word document, what each bookmark shows and the document itself: approvers approve what gets printed. */
function TemplateDocumentReview({ template }: { template: TemplateDetail }) {
  const { t } = useTranslation();
  const { document } = template;
  return (
    <Card compact className="template-approval__document" data-testid="template-approval-document">
      <H4>{t('contractDocument.review.title')}</H4>
      {document ? (
        <>
          <p className="bp6-text-muted">{t('contractDocument.review.hint')}</p>
          <Tag large icon="document" data-testid="template-document-name">
            {document.name} · {t('contractDocument.section.size', { size: Math.max(1, Math.round(document.size / 1024)) })}
          </Tag>
          <DocumentMapping fields={template.fields} clauses={template.clauses} document={document} />
          <TemplateDocumentPreview fileId={document.fileId} />
        </>
      ) : (
        <Callout intent="warning" icon="warning-sign" data-testid="template-approval-no-document">
          {t('contractDocument.review.none')}
        </Callout>
      )}
    </Card>
  );
}

function TemplateReview({ template, services }: { template: TemplateDetail; services: FormServices }) {
  const { t } = useTranslation();
  const formRef = useRef<ContractFormHandle>(null);
  const [step] = useTemplateApprovalStepMutation();
  const fields = templateFormFields(template);
  return (
    <>
      <header className="contract-header" data-testid="template-approval-header">
        <div className="contract-header__title">
          <H2 data-testid="template-approval-name">{template.name}</H2>
          <div className="contract-header__actions" role="toolbar" aria-label={t('contractPage.actions')} data-testid="template-approval-actions">
            <ApprovalActions
              subject="template"
              name={template.name}
              status={template.status}
              take={(action, comment) => step({ id: template.id, action, ...(comment !== undefined && { comment }) }).unwrap()}
              doneText={(action) => t(`approval.done.${action}`)}
            />
          </div>
        </div>
        <div className="contract-header__facts">
          <span>
            {t('approval.template.number')}: {template.templateNumber ?? t('contractStatus.missing')}
          </span>
          <span data-testid="template-approval-status">
            <ContractStatusCell status={template.status} />
          </span>
        </div>
      </header>
      <TemplateDocumentReview template={template} />
      {fields === null ? (
        <ScreenState error={{ code: 'bad_request', message: t('contracts.templateLoadFailed') }} title={t('contracts.templateLoadFailed')} />
      ) : fields.length === 0 ? (
        <NonIdealState icon="document" title={t('approval.template.noFields')} />
      ) : (
        // The fields as a contract drafted from it shows them, read-only; the clauses' statement
        // text is not inserted at the template's bookmarks on an approval page (spec 4).
        <DraftForm services={services} fields={fields} clauses={template.clauses} contractId={null} formRef={formRef} mode="preview" templateApproval values={{}} onValuesChange={() => undefined} />
      )}
    </>
  );
}

function TemplateToReview({ id }: { id: string }) {
  const { t } = useTranslation();
  const { services, error: servicesError } = useBridgeFormServices();
  const { data: template, error } = useTemplateOnlineQuery(id);
  if (!template || !services) return <ScreenState error={error ?? servicesError} title={t('approval.template.loadFailed')} />;
  return <TemplateReview key={template.id} template={template} services={services} />;
}

/** The templates to choose from (from the server, any status), searched by name. */
function TemplateList() {
  const { t, i18n } = useTranslation();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const { data, error } = useTemplateListQuery({ pageNum: 1, ...(q && { q }) });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(typed.trim());
  };
  return (
    <>
      <form className="template-approval__search" onSubmit={search} role="search">
        <InputGroup leftIcon="search" data-testid="template-approval-search" placeholder={t('approval.template.search')} aria-label={t('approval.template.search')} value={typed} onValueChange={setTyped} />
        <Button type="submit" icon="search" aria-label={t('approval.template.search')} />
      </form>
      {!data ? (
        <ScreenState error={error} title={t('approval.template.listFailed')} />
      ) : data.list.length === 0 ? (
        <NonIdealState icon="search" title={t('approval.template.none')} />
      ) : (
        <HTMLTable compact striped className="template-approval__list" data-testid="template-approval-list">
          <thead>
            <tr>
              <th>{t('approval.template.name')}</th>
              <th>{t('approval.template.number')}</th>
              <th>{t('approval.template.status')}</th>
              <th>{t('approval.template.updated')}</th>
              <th aria-label={t('approval.template.open')} />
            </tr>
          </thead>
          <tbody>
            {data.list.map((template) => (
              <tr key={template.id} data-testid="template-approval-row">
                <td>{template.name}</td>
                <td>{template.templateNumber ?? t('contractStatus.missing')}</td>
                <td>
                  <ContractStatusCell status={template.status} />
                </td>
                <td>{formatDateTime(template.updateTime, i18n.language)}</td>
                <td>
                  <LinkButton variant="minimal" size="small" icon="eye-open" data-testid="template-approval-open" to={`${route}?id=${encodeURIComponent(template.id)}`} text={t('approval.template.open')} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </>
  );
}

/**
 * /templateApproval/detail (spec 2): a template under review, `?id=…`, with its status, its Word
 * document (its bookmark mapping and its pages as written), its fields in the generic form's preview and the approval steps
 * the user may take; without an id, the
 * templates to choose from. Templates are not replicated, so this screen needs the server: offline
 * it says so (UI.md "Offline") and its steps are refused at once.
 */
export function TemplateApprovalScreen() {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const id = query.get('id');
  return (
    <section className="contract-screen" data-testid="template-approval">
      {id ? (
        <>
          <div>
            <LinkButton variant="minimal" icon="arrow-left" to={route} text={t('approval.template.allTemplates')} />
          </div>
          <TemplateToReview id={id} />
        </>
      ) : (
        <>
          <H2>{t('approval.template.title')}</H2>
          <TemplateList />
        </>
      )}
    </section>
  );
}
