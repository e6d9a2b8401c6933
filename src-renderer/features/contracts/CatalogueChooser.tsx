import { Button, Callout, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { DraftingCatalogue } from '../../../src-shared/ipc/drafting';
import { useRefreshCatalogueMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';
import { formatDateTime } from '../../i18n/format';

/** The value of the chooser's blank-contract entry (template ids are UUIDs). */
export const blankContract = 'blank';

/** Choosing what to draft from: a template of the offline catalogue, or (where offered) a blank contract. */
export function CatalogueChooser({
  catalogue,
  chosen,
  offerBlank,
  onChoose,
}: {
  catalogue: DraftingCatalogue;
  chosen: string;
  offerBlank: boolean;
  onChoose(choice: string): void;
}) {
  const { t, i18n } = useTranslation();
  const [refresh, { isLoading }] = useRefreshCatalogueMutation();
  const failed = useActionFailure();
  return (
    <div className="contract-chooser">
      {catalogue.refreshedAt === null && (
        <Callout intent="warning" icon="offline" data-testid="contract-catalogue-missing">
          {t('contracts.catalogueNotFetched')}
        </Callout>
      )}
      <FormGroup label={t('contracts.template')} labelFor="contract-template">
        <HTMLSelect id="contract-template" data-testid="contract-template" value={chosen} onChange={(event) => onChoose(event.currentTarget.value)}>
          <option value="" disabled>
            {t('contracts.chooseTemplate')}
          </option>
          {offerBlank && <option value={blankContract}>{t('contracts.blankContract')}</option>}
          {catalogue.templates.map((template) => (
            <option key={template.id} value={template.id}>
              {template.templateNumber ? `${template.name} (${template.templateNumber})` : template.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <Button
        variant="minimal"
        icon="refresh"
        loading={isLoading}
        data-testid="contract-catalogue-refresh"
        text={t('contracts.refreshCatalogue')}
        onClick={() => void refresh().unwrap().catch(failed)}
      />
      {catalogue.refreshedAt && (
        <span className="bp6-text-muted">{t('contracts.catalogueRefreshedAt', { time: formatDateTime(catalogue.refreshedAt, i18n.language) })}</span>
      )}
    </div>
  );
}
