import { H2 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTemplateQuery } from '../../api/api';
import type { FormServices } from '../contract-form';
import { CatalogueChooser } from './CatalogueChooser';
import { ContractDraft } from './ContractDraft';
import type { TemplateDetailState } from './CreateContractScreen';
import { ScreenState } from './ScreenState';
import { useBridgeFormServices } from './useBridgeFormServices';

function chosenTemplateId(state: unknown): string | null {
  const templateId = (state as Partial<TemplateDetailState> | null)?.templateId;
  return typeof templateId === 'string' ? templateId : null;
}

function TemplateDraft({ templateId, services }: { templateId: string; services: FormServices }) {
  const { t } = useTranslation();
  const { data: template, error } = useTemplateQuery(templateId);
  if (!template) return <ScreenState error={error} title={t('contracts.templateLoadFailed')} />;
  // A new template means a new draft: the key drops the previous template's values.
  return <ContractDraft key={template.id} template={template} services={services} />;
}

/**
 * /template/detail: a contract drafted from a template, with its clauses and the text they
 * compose at the template's bookmarks. The route takes no query (spec 2): the template comes in
 * the history entry (kept across reloads), or is chosen here.
 */
export function TemplateDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { services, error } = useBridgeFormServices();
  const templateId = chosenTemplateId(location.state);
  if (!services) return <ScreenState error={error} title={t('contracts.loadFailed')} />;
  const choose = (chosen: string) => void navigate('/template/detail', { replace: true, state: { templateId: chosen } satisfies TemplateDetailState });
  return (
    <section className="contract-screen" data-testid="template-detail">
      <H2>{t('contracts.createTitle')}</H2>
      <CatalogueChooser catalogue={services.catalogue} chosen={templateId ?? ''} offerBlank={false} onChoose={choose} />
      {templateId && <TemplateDraft templateId={templateId} services={services} />}
    </section>
  );
}
