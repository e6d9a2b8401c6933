import { useMemo, useState } from 'react';
import { Button, Callout, Collapse, NonIdealState, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { defaultLedgerPageSize, type LedgerPageSize } from '../../../src-shared/domain/enums';
import { nameFieldId, type FilterCondition, type LedgerField } from '../../../src-shared/domain/ledger';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { errorText } from '../../i18n/errorText';
import { Pager } from '../ledger/Pager';
import { filterList, SceneFilters, type FilterDraft } from './SceneFilters';
import { useLedgerSearchQuery } from './scenesApi';
import { SceneExport } from './SceneExport';
import { SceneTable, type SceneSort } from './SceneTable';

// One scene's tab: its filter drawer, table, pager and empty state, answered by the replica.
// Mounted per scene (keyed by its id), so changing tab starts from no filters and page 1.

interface ScenePanelProps {
  scene: SceneView;
  fields: readonly LedgerField[];
}

interface Asked {
  filterList: FilterCondition[];
  q: string;
}

export function ScenePanel({ scene, fields }: ScenePanelProps) {
  const { t } = useTranslation();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [draft, setDraft] = useState<FilterDraft>({});
  const [keyword, setKeyword] = useState('');
  const [asked, setAsked] = useState<Asked>({ filterList: [], q: '' });
  const [sort, setSort] = useState<SceneSort | null>(null);
  const [pageNum, setPageNum] = useState(1);
  const [pageSize, setPageSize] = useState<LedgerPageSize>(defaultLedgerPageSize);

  const byId = useMemo(() => new Map(fields.map((field) => [field.id, field])), [fields]);
  const filterFields = scene.filterIDs.flatMap((id) => byId.get(id) ?? []);
  const columns = [nameFieldId, ...scene.titleIDs.filter((id) => id !== nameFieldId)].flatMap((id) => byId.get(id) ?? []);
  // The question as shown; the export asks it whole.
  const shown = { standingBookID: scene.id, filterList: asked.filterList, ...(asked.q ? { q: asked.q } : {}), ...(sort ? { sortField: sort } : {}) };
  const { data: page, error, isFetching } = useLedgerSearchQuery({ ...shown, pageNum, pageSize });
  const filtered = asked.q !== '' || asked.filterList.length > 0;
  const reset = () => {
    setDraft({});
    setKeyword('');
    setAsked({ filterList: [], q: '' });
    setPageNum(1);
  };

  let body;
  if (error) {
    body = (
      <Callout intent="danger" icon="error" title={t('scenes.loadFailed')} role="alert">
        {errorText(t, error)}
      </Callout>
    );
  } else if (!page) {
    body = <Spinner className="ledger__loading" />;
  } else if (page.count === 0) {
    body = (
      <div className="ledger__empty" data-testid="scene-empty">
        <NonIdealState icon={filtered ? 'search' : 'th-list'} title={t('scenes.empty')} action={filtered ? <Button text={t('scenes.reset')} onClick={reset} /> : undefined} />
      </div>
    );
  } else {
    body = (
      <>
        <SceneTable
          columns={columns}
          rows={page.list}
          sort={sort}
          stale={isFetching}
          onSort={(next) => {
            setSort(next);
            setPageNum(1);
          }}
        />
        <Pager
          pageNum={pageNum}
          pageSize={pageSize}
          total={page.count}
          onPageChange={setPageNum}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPageNum(1);
          }}
        />
      </>
    );
  }

  return (
    <div className="scene-panel" data-testid={`scene-panel-${scene.id}`}>
      <div className="scene-panel__toolbar">
        <Button
          data-testid="scene-filter-toggle"
          icon="filter"
          variant="minimal"
          intent={filtered ? 'primary' : 'none'}
          active={filtersOpen}
          aria-expanded={filtersOpen}
          text={t('scenes.filters')}
          onClick={() => setFiltersOpen((open) => !open)}
        />
        <SceneExport scene={scene} search={shown} disabled={!page || page.count === 0} />
      </div>
      <Collapse isOpen={filtersOpen}>
        <SceneFilters
          fields={filterFields}
          draft={draft}
          keyword={keyword}
          onDraftChange={setDraft}
          onKeywordChange={setKeyword}
          onSearch={() => {
            setAsked({ filterList: filterList(filterFields, draft), q: keyword.trim() });
            setPageNum(1);
          }}
          onReset={reset}
        />
      </Collapse>
      {body}
    </div>
  );
}
