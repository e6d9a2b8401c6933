import { useEffect, useRef } from 'react';
import { Button, Callout, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { DraftingCatalogue } from '../../../src-shared/ipc/drafting';
import { useRefreshCatalogueMutation, useSyncStatusQuery } from '../../api/api';
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
  const online = useSyncStatusQuery().data?.online ?? false;
  const missing = catalogue.refreshedAt === null;
  // A drafting screen opened before the catalogue came (a first sync fetches it only at its end)
  // asks for it at once while the server is reachable, as the refresh button would; once per screen.
  const asked = useRef(false);
  useEffect(() => {
    if (!missing || !online || asked.current) return;
    asked.current = true;
    // Not unwrapped: offline or refused, the core answers the kept catalogue and the callout below stays, with the button.
    void refresh();
  }, [missing, online, refresh]);
  return (
    <div className="contract-chooser">
      {missing && isLoading && (
        <Callout icon="cloud-download" data-testid="contract-catalogue-fetching">
          {t('contracts.catalogueFetching')}
        </Callout>
      )}
      {missing && !isLoading && (
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
