import { useState } from 'react';
import { Checkbox, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../manage/FormDialog';
import { Pager } from '../ledger/Pager';
import { ReadState } from '../manage/ReadState';
import { SearchBox } from '../manage/SearchBox';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { usePaging } from '../manage/usePaging';

/** Picks contracts the user may see and that are in no project yet (contracts/list/visible), and adds them. */
export function AddContractsDialog({ projectId, onClose }: { projectId: string; onClose(): void }) {
  const { t } = useTranslation();
  const paging = usePaging();
  const { answer, error } = useServerRead('contractListVisible', {
    query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q, withoutProject: 'true' },
  });
  const write = useServerWrite();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());

  function toggle(id: string) {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  async function submit(): Promise<boolean> {
    await write('projectAddContracts', { params: { id: projectId }, body: { contractIds: [...chosen] } });
    return true;
  }

  return (
    <FormDialog title={t('manage.projects.addTitle')} width={800} onClose={onClose} onSubmit={submit} submitText={t('manage.projects.addChosen', { count: chosen.size })}>
      <SearchBox placeholder={t('manage.projects.searchContracts')} onSearch={paging.search} testId="visible-search" asYouType />
      <ReadState answer={answer} error={error}>
        {(page) =>
          page.count === 0 ? (
            <NonIdealState icon="document" title={t('manage.projects.noVisible')} />
          ) : (
            <>
              <HTMLTable compact striped className="manage__picker">
                <thead>
                  <tr>
                    <th aria-label={t('manage.projects.choose')} />
                    <th>{t('manage.projects.contractName')}</th>
                    <th>{t('manage.projects.contractNumber')}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.list.map((contract) => (
                    <tr key={contract.id} data-testid="visible-contract">
                      <td>
                        <Checkbox checked={chosen.has(contract.id)} onChange={() => toggle(contract.id)} aria-label={contract.name} />
                      </td>
                      <td className="manage__text">{contract.name}</td>
                      <td>{contract.contractNumber ?? '--'}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
              <Pager pageNum={paging.pageNum} pageSize={paging.pageSize} total={page.count} onPageChange={paging.setPageNum} onPageSizeChange={paging.setPageSize} />
            </>
          )
        }
      </ReadState>
    </FormDialog>
  );
}
