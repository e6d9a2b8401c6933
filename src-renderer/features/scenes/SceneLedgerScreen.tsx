import { useState } from 'react';
import { Button, Callout, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { errorText } from '../../i18n/errorText';
import { ContractOverview } from '../ledger/ContractOverview';
import { PerformanceDashboard } from '../performance/PerformanceDashboard';
import { ManageScenesDialog } from './ManageScenesDialog';
import { SceneConfigDialog } from './SceneConfigDialog';
import { ScenePanel } from './ScenePanel';
import { useLedgerFieldsQuery, useScenesQuery } from './scenesApi';
import { sceneName } from './sceneText';
import { StatusCounts } from './StatusCounts';

// The ledger list screen (spec 2): the fixed 'performance statistics' tab, then the user's
// scenes from the replica, the default one chosen on load; managing and configuring scenes.

const dashboardTab = 'performance-statistics';
/** The contracts of the user's view with their actions (search, transfer, archive, scoring): a fixed tab after the dashboard. */
const contractsTab = 'contracts';
const fixedTabs: readonly string[] = [dashboardTab, contractsTab];

type Editing = { scene: SceneView | null } | null;

export function SceneLedgerScreen() {
  const { t } = useTranslation();
  const { data: scenes, error } = useScenesQuery();
  const { data: fields } = useLedgerFieldsQuery();
  const [chosen, setChosen] = useState<string | null>(null);
  const [managing, setManaging] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);

  if (error) {
    return (
      <Callout intent="danger" icon="error" title={t('scenes.loadFailed')} role="alert">
        {errorText(t, error)}
      </Callout>
    );
  }
  if (!scenes || !fields) return <Spinner className="ledger__loading" />;
  // The default scene on load; a chosen tab whose scene is gone falls back to it too.
  const selected = (chosen !== null && fixedTabs.includes(chosen)) || scenes.some((scene) => scene.id === chosen) ? chosen! : (scenes.find((scene) => scene.isDefault)?.id ?? dashboardTab);
  const scene = scenes.find((s) => s.id === selected);

  return (
    <section className="ledger scene-ledger" data-testid="scene-ledger">
      <div className="ledger__header scene-ledger__header">
        <Tabs id="ledger-scenes" size="large" animate={false} selectedTabId={selected} onChange={(id) => setChosen(String(id))} className="scene-ledger__tabs">
          <Tab id={dashboardTab} data-testid="scene-tab-dashboard" title={t('ledger.performanceStatistics')} />
          <Tab id={contractsTab} data-testid="scene-tab-contracts" title={t('dashboard.contractsTab')} />
          {scenes.map((s) => (
            <Tab
              key={s.id}
              id={s.id}
              data-testid={`scene-tab-${s.id}`}
              // A system scene is named in the catalog; the user's own by its name, as written (data).
              title={s.isSystem ? sceneName(t, s) : <span data-user-data>{sceneName(t, s)}</span>}
              tagContent={s.pending ? t('scenes.pending') : undefined}
              tagProps={{ minimal: true, intent: 'warning' }}
            />
          ))}
        </Tabs>
        <div className="ledger__actions">
          <Button data-testid="scene-add" icon="add" variant="minimal" text={t('scenes.add')} onClick={() => setEditing({ scene: null })} />
          <Button data-testid="scene-manage" icon="properties" variant="minimal" text={t('scenes.manage')} onClick={() => setManaging(true)} />
        </div>
      </div>
      {scene && <StatusCounts />}
      {scene && <ScenePanel key={scene.id} scene={scene} fields={fields} />}
      {selected === dashboardTab && <PerformanceDashboard />}
      {selected === contractsTab && <ContractOverview />}
      {scenes.length === 0 && <Tag minimal>{t('scenes.noScenes')}</Tag>}
      {managing && <ManageScenesDialog scenes={scenes} onClose={() => setManaging(false)} onEdit={(s) => setEditing({ scene: s })} />}
      {editing && <SceneConfigDialog scene={editing.scene} scenes={scenes} fields={fields} onClose={() => setEditing(null)} />}
    </section>
  );
}
