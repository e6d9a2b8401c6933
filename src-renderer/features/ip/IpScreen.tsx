import { useState } from 'react';
import { Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { OrganizationsPanel } from './OrganizationsPanel';
import { RightsPanel } from './RightsPanel';
import '../manage/manage.css';

/** Intellectual property (spec 7): the register of rights and the organisations holding them. */
export function IpScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string>('rights');
  return (
    <section className="manage" data-testid="ip">
      <h2 className="manage__title">{t('manage.ip.title')}</h2>
      <Tabs id="ip-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} animate={false} renderActiveTabPanelOnly>
        <Tab id="rights" title={t('manage.ip.rightsTab')} panel={<RightsPanel />} />
        <Tab id="organizations" title={t('manage.ip.organizationsTab')} panel={<OrganizationsPanel />} />
      </Tabs>
    </section>
  );
}
