import { useState } from 'react';
import { HTMLTable, Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { NumberingKind } from '../../../src-shared/domain/numbering';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { oldestOffline, ReadState } from '../manage/ReadState';
import { useServerRead } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { AbbrSettings } from './AbbrSettings';
import { EditorsPanel } from './EditorsPanel';
import { numberingEndpoints } from './numberingEndpoints';
import { RulesEditor } from './RulesEditor';
import { useScopeTargets, type ScopeTarget } from './useScopeTargets';
import '../manage/manage.css';
import './numbering.css';

/** Numbering settings (Settings, spec 3, 4, 6, 7): contract and template rules, abbreviations, previews, number editors. */
export function NumberingScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string>('contract');
  return (
    <section className="manage" data-testid="numbering">
      <h2 className="manage__title">{t('manage.numbering.title')}</h2>
      <Tabs id="numbering-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} animate={false} renderActiveTabPanelOnly>
        <Tab id="contract" title={t('manage.numbering.contractTab')} panel={<KindPanel kind="contract" />} />
        <Tab id="template" title={t('manage.numbering.templateTab')} panel={<KindPanel kind="template" />} />
        <Tab id="editors" title={t('manage.numbering.editorsTab')} panel={<EditorsTab />} />
      </Tabs>
    </section>
  );
}

function KindPanel({ kind }: { kind: NumberingKind }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const endpoints = numberingEndpoints[kind];
  const rules = useServerRead(endpoints.rules);
  const abbr = useServerRead(endpoints.abbrSettings);
  const preview = useServerRead(endpoints.preview);
  const { targetsOf, nameOf } = useScopeTargets();
  const canSave = user?.role === 'admin';
  return (
    <div className="numbering__panel">
      {/* One "as of" note for the panel's three reads while the server is away. */}
      <AsOfNote answer={oldestOffline(rules.answer, abbr.answer, preview.answer)} />
      <ReadState answer={rules.answer} error={rules.error} asOfNote={false}>
        {(stored) => (
          <ReadState answer={abbr.answer} error={abbr.error} asOfNote={false}>
            {(settings) => (
              <>
                <RulesEditor
                  key={`${rules.answer?.asOf}-${abbr.answer?.asOf}`}
                  kind={kind}
                  stored={stored}
                  abbrSettings={settings.list}
                  targetsOf={targetsOf}
                  saved={preview.answer?.value.list ?? []}
                  canSave={canSave}
                />
                <AbbrSettings kind={kind} settings={settings.list} targetsOf={targetsOf} nameOf={nameOf} canSave={canSave} />
              </>
            )}
          </ReadState>
        )}
      </ReadState>
      <h4 className="manage__subtitle">{t('manage.numbering.savedPreview')}</h4>
      <ReadState answer={preview.answer} error={preview.error} asOfNote={false}>
        {(saved) => <SavedPreview rules={saved.list} nameOf={nameOf} />}
      </ReadState>
    </div>
  );
}

interface SavedPreviewProps {
  rules: { id: string; format: string; conditionType: 0 | 1 | 2 | 3; values: string[] }[];
  nameOf(scope: 0 | 1 | 2 | 3, id: string | null): ScopeTarget['name'] | null;
}

/** The next number each saved rule in use gives now (the server's preview). */
function SavedPreview({ rules, nameOf }: SavedPreviewProps) {
  const { t } = useTranslation();
  if (rules.length === 0) return <p className="manage__muted">{t('manage.numbering.noRules')}</p>;
  return (
    <div className="manage__table">
      <HTMLTable compact striped>
        <thead>
          <tr>
            <th>{t('manage.numbering.ruleScopeLabel')}</th>
            <th>{t('manage.numbering.target')}</th>
            <th>{t('manage.numbering.nextNumber')}</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr key={rule.id} data-testid="saved-preview">
              <td>{t('manage.numbering.ruleScope', { returnObjects: true })[rule.conditionType]}</td>
              <td>{rule.values.map((id) => nameOf(rule.conditionType, id)).join(', ') || '--'}</td>
              <td className="numbering__preview">{rule.format}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

function EditorsTab() {
  const user = useCurrentUser();
  const editors = useServerRead('contractNumberEditors');
  const users = useServerRead('userDirectory');
  const departments = useServerRead('departmentDirectory');
  return (
    <>
    <AsOfNote answer={oldestOffline(editors.answer, users.answer, departments.answer)} />
    <ReadState answer={editors.answer} error={editors.error} asOfNote={false}>
      {(list) => (
        <ReadState answer={users.answer} error={users.error} asOfNote={false}>
          {(people) => (
            <ReadState answer={departments.answer} error={departments.error} asOfNote={false}>
              {(units) => (
                <EditorsPanel
                  key={editors.answer?.asOf}
                  editors={list.editors}
                  users={people.list}
                  departments={units.list}
                  isAdmin={user?.role === 'admin'}
                />
              )}
            </ReadState>
          )}
        </ReadState>
      )}
    </ReadState>
    </>
  );
}
