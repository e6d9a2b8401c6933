import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Callout, Collapse, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { defaultLedgerPageSize, type LedgerPageSize } from '../../../src-shared/domain/enums';
import { nameFieldId, type FilterCondition, type LedgerField } from '../../../src-shared/domain/ledger';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { api } from '../../api/api';
import { useAppDispatch } from '../../app/hooks';
import { showFailure, showNotice } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import { Pager } from '../ledger/Pager';
import { TransferAction } from '../transfer/TransferDialog';
import { draftOf, filterList, SceneFilters, type FilterDraft } from './SceneFilters';
import { batchRows, RowFinishDialog, useContractsOf, useRowSelection, type RowTarget } from './SceneRows';
import { scenesApi, useLedgerSearchQuery, useUpdateSceneMutation } from './scenesApi';
import { SceneExport } from './SceneExport';
import { SceneTable, type SceneSort } from './SceneTable';
import { fieldLabel, sceneErrorText } from './sceneText';

// One scene's tab: its filter drawer (starting from the scene's kept filter values, which the
// search and the export apply from the start), table (sorted as the scene keeps it until a column
// is sorted here, a sort kept in the scene by its own action as the filter values are), pager,
// empty state and the chosen rows' batch actions, answered by the replica. Mounted per scene
// (keyed by its id), so changing tab starts from the scene's own filters and sort, page 1 and no
// rows chosen.

interface ScenePanelProps {
  scene: SceneView;
  fields: readonly LedgerField[];
}

interface Asked {
  filterList: FilterCondition[];
  q: string;
}

const nothingAsked: Asked = { filterList: [], q: '' };

const sameSort = (a: SceneSort | null, b: SceneSort | null) => a?.id === b?.id && a?.key === b?.key;

export function ScenePanel({ scene, fields }: ScenePanelProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(scene.filter));
  // Remounts the drawer's controls when the draft is put back (their typed text is their own).
  const [drawerKey, setDrawerKey] = useState(0);
  const [keyword, setKeyword] = useState('');
  const [asked, setAsked] = useState<Asked>(nothingAsked);
  // undefined: the scene's kept sort, which the core applies when the search names none.
  const [askedSort, setAskedSort] = useState<SceneSort | null | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const [pageSize, setPageSize] = useState<LedgerPageSize>(defaultLedgerPageSize);
  const [target, setTarget] = useState<RowTarget | null>(null);
  const [updateScene, keeping] = useUpdateSceneMutation();
  const [updateSort, keepingSort] = useUpdateSceneMutation();
  const selection = useRowSelection();

  const byId = useMemo(() => new Map(fields.map((field) => [field.id, field])), [fields]);
  const kept = useMemo(() => new Set(scene.filter.map((filter) => filter.id)), [scene.filter]);
  // The drawer shows the filter fields and every field the scene keeps a value of.
  const filterFields = [...new Set([...scene.filterIDs, ...kept])].flatMap((id) => byId.get(id) ?? []);
  const columns = [nameFieldId, ...scene.titleIDs.filter((id) => id !== nameFieldId)].flatMap((id) => byId.get(id) ?? []);
  const keptSort = scene.sortField && { id: scene.sortField.id, key: scene.sortField.key };
  const sort = askedSort === undefined ? keptSort : askedSort;
  const sortChanged = askedSort !== undefined && !sameSort(askedSort, keptSort);
  const sortedBy = sort && byId.get(sort.id);
  // The question as shown; the export asks it whole.
  const shown = { standingBookID: scene.id, filterList: asked.filterList, ...(asked.q ? { q: asked.q } : {}), ...(askedSort !== undefined ? { sortField: askedSort } : {}) };
  const { data: page, error, isFetching } = useLedgerSearchQuery({ ...shown, pageNum, pageSize });
  const rows = useMemo(() => page?.list ?? [], [page]);
  const contracts = useContractsOf(selection, rows);
  const filtered = asked.q !== '' || asked.filterList.length > 0 || scene.filter.length > 0;

  // People cells are named from the kept directory: once it is (re)fetched, the rows are read again
  // with the names, rather than only after the next search.
  const showsPeople = columns.some((field) => field.type === 'people');
  const { data: directory } = api.useDirectoryQuery(undefined, { skip: !showsPeople });
  const directoryTime = directory?.fetchedAt;
  useEffect(() => {
    if (directoryTime) dispatch(scenesApi.util.invalidateTags(['LedgerSearch']));
  }, [directoryTime, dispatch]);

  const reset = () => {
    setDraft(draftOf(scene.filter));
    setDrawerKey((key) => key + 1);
    setKeyword('');
    setAsked(nothingAsked);
    setPageNum(1);
  };
  const keep = async () => {
    const result = await updateScene({ id: scene.id, patch: { filter: filterList(filterFields, draft) } });
    if ('error' in result) return showFailure(sceneErrorText(t, result.error!));
    showNotice(t('scenes.filtersSaved'));
    // The kept values are now the scene's own: the search asks nothing beyond them.
    setAsked({ filterList: [], q: keyword.trim() });
    setPageNum(1);
  };
  const keepSort = async () => {
    const result = await updateSort({ id: scene.id, patch: { sortField: sort } });
    if ('error' in result) return showFailure(sceneErrorText(t, result.error!));
    showNotice(t(sort ? 'scenes.sortSaved' : 'scenes.sortCleared'));
  };
  const batchFinish = () => {
    const picked = batchRows(selection.selected.values());
    if (typeof picked === 'string') showFailure(t(`scenes.rows.${picked}`));
    else setTarget({ kind: 'batch', rows: picked });
  };
  const closeTarget = useCallback(() => setTarget(null), []);

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
          rows={rows}
          sort={sort}
          stale={isFetching}
          onSort={(next) => {
            setAskedSort(next);
            setPageNum(1);
          }}
          selection={selection}
          onTarget={setTarget}
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

  const chosen = selection.selected.size;
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
        {sort && sortedBy && (
          // Said beside the filters too: the sorted column may be scrolled out of view.
          <span className="scene-panel__sort bp6-text-muted" data-testid="scene-sort-shown">
            <Icon icon={sort.key === 1 ? 'sort-asc' : 'sort-desc'} size={12} />
            {t(sort.key === 1 ? 'scenes.sortedAscending' : 'scenes.sortedDescending', { field: fieldLabel(t, sortedBy) })}
          </span>
        )}
        {sortChanged && (
          <Button
            data-testid="scene-keep-sort"
            icon="floppy-disk"
            variant="minimal"
            intent="primary"
            text={t('scenes.saveSort')}
            loading={keepingSort.isLoading}
            onClick={() => void keepSort()}
          />
        )}
        <span className="scene-panel__spacer" />
        <Button
          data-testid="scene-batch-finish"
          icon="tick-circle"
          variant="minimal"
          text={chosen > 0 ? t('scenes.rows.batchFinishCount', { count: chosen }) : t('scenes.rows.batchFinish')}
          onClick={batchFinish}
        />
        <TransferAction selection={contracts} />
        <SceneExport scene={scene} search={shown} disabled={!page || page.count === 0} />
      </div>
      <Collapse isOpen={filtersOpen}>
        <SceneFilters
          key={drawerKey}
          fields={filterFields}
          draft={draft}
          keyword={keyword}
          onDraftChange={setDraft}
          onKeywordChange={setKeyword}
          onSearch={() => {
            setAsked({ filterList: filterList(filterFields, draft, kept), q: keyword.trim() });
            setPageNum(1);
          }}
          onReset={reset}
          onKeep={() => void keep()}
          keeping={keeping.isLoading}
        />
      </Collapse>
      {body}
      {target && <RowFinishDialog target={target} onClose={closeTarget} />}
    </div>
  );
}
