import { useState } from 'react';
import { H2 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { blankContract, CatalogueChooser } from './CatalogueChooser';
import { ContractDraft } from './ContractDraft';
import { ScreenState } from './ScreenState';
import { useBridgeFormServices } from './useBridgeFormServices';

/** Where /template/detail finds its template: in the history entry (spec 2 gives the route no query). */
export interface TemplateDetailState {
  templateId: string;
}

/**
 * /standingBook/create?mode=contract: choose a template of the offline catalogue (drafted on
 * /template/detail) or draft a blank contract here.
 */
export function CreateContractScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { services, error } = useBridgeFormServices();
  const [choice, setChoice] = useState('');
  if (!services) return <ScreenState error={error} title={t('contracts.loadFailed')} />;
  const choose = (chosen: string) => {
    setChoice(chosen);
    if (chosen !== blankContract) void navigate('/template/detail', { state: { templateId: chosen } satisfies TemplateDetailState });
  };
  return (
    <section className="contract-screen" data-testid="contract-create">
      <H2>{t('contracts.createTitle')}</H2>
      <CatalogueChooser catalogue={services.catalogue} chosen={choice} offerBlank onChoose={choose} />
      {choice === blankContract && <ContractDraft template={null} services={services} />}
    </section>
  );
}
