import { useMemo, useState } from 'react';
import { Tab, Tabs, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { CaseTypeNode } from '../../../src-shared/domain/ledger';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead } from '../manage/serverData';
import { usePaging } from '../manage/usePaging';
import '../manage/manage.css';

// Law firms, lawyers and case types (spec 7 "Form support" and case_type/list/by_user): what
// the agent field and the templates offer, browsable and searchable. The server has reads only;
// each read is kept, so offline the screen shows it as of its time.

/** Spec 3: state 2 is a disabled case type. */
const disabledCaseType = 2;

/** The law firms a page at a time, searched on the server, with how many of their lawyers are known. */
function LawFirmsPanel() {
  const { t } = useTranslation();
  const paging = usePaging();
  const read = useServerRead('lawFirmList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q } });
  const lawyers = useServerRead('lawyerList');
  const lawyersByFirm = useMemo(() => {
    const counts = new Map<string, number>();
    for (const lawyer of lawyers.answer?.value.list ?? []) counts.set(lawyer.lawFirmID, (counts.get(lawyer.lawFirmID) ?? 0) + 1);
    return counts;
  }, [lawyers.answer]);
  return (
    <div className="manage" data-testid="legal-law-firms">
      <ListHeader search={{ placeholder: t('manage.legal.searchLawFirms'), onSearch: paging.search, testId: 'legal-law-firm-search' }} />
      <ManagedList
        read={read}
        rows={(page) => page}
        paging={paging}
        empty={{ icon: 'office', title: paging.q ? t('manage.legal.noMatch') : t('manage.legal.noLawFirms') }}
        rowKey={(firm) => firm.id}
        rowTestId="legal-law-firm"
        columns={[
          { header: t('manage.legal.lawFirm'), wrap: true, cell: (firm) => firm.name },
          { header: t('manage.legal.lawyerCount'), cell: (firm) => (lawyers.answer ? (lawyersByFirm.get(firm.id) ?? 0) : '--') },
        ]}
      />
    </div>
  );
}

/** Every lawyer with their firm (the server gives them all at once): searched and paged here. */
function LawyersPanel() {
  const { t } = useTranslation();
  const paging = usePaging();
  const read = useServerRead('lawyerList');
  const firms = useServerRead('lawFirmList');
  const firmName = useMemo(() => new Map((firms.answer?.value.list ?? []).map((firm) => [firm.id, firm.name])), [firms.answer]);
  return (
    <div className="manage" data-testid="legal-lawyers">
      <ListHeader search={{ placeholder: t('manage.legal.searchLawyers'), onSearch: paging.search, testId: 'legal-lawyer-search' }} />
      <ManagedList
        read={read}
        rows={({ list }) => {
          const q = paging.q.toLowerCase();
          const found = q ? list.filter((lawyer) => lawyer.name.toLowerCase().includes(q) || (firmName.get(lawyer.lawFirmID) ?? '').toLowerCase().includes(q)) : list;
          return { list: found.slice((paging.pageNum - 1) * paging.pageSize, paging.pageNum * paging.pageSize), count: found.length };
        }}
        paging={paging}
        empty={{ icon: 'person', title: paging.q ? t('manage.legal.noMatch') : t('manage.legal.noLawyers') }}
        rowKey={(lawyer) => lawyer.id}
        rowTestId="legal-lawyer"
        columns={[
          { header: t('manage.legal.lawyer'), wrap: true, cell: (lawyer) => lawyer.name },
          { header: t('manage.legal.lawFirm'), wrap: true, cell: (lawyer) => firmName.get(lawyer.lawFirmID) ?? '--' },
        ]}
      />
    </div>
  );
}

interface CaseTypeRow {
  node: CaseTypeNode;
  depth: number;
}

/** The tree in reading order, each node with its depth; a search keeps matching nodes with the path to them. */
function caseTypeRows(nodes: readonly CaseTypeNode[], q: string, depth = 0): CaseTypeRow[] {
  return nodes.flatMap((node) => {
    const below = caseTypeRows(node.children, q, depth + 1);
    const matches = !q || node.name.toLowerCase().includes(q) || node.templateList.some((template) => template.name.toLowerCase().includes(q));
    return matches || below.length > 0 ? [{ node, depth }, ...below] : [];
  });
}

/** The case types the user may use, as a tree: enabled or disabled, and the templates of each. */
function CaseTypesPanel() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const read = useServerRead('caseTypeTree');
  return (
    <div className="manage" data-testid="legal-case-types">
      <ListHeader search={{ placeholder: t('manage.legal.searchCaseTypes'), onSearch: setQ, testId: 'legal-case-type-search' }} />
      <ManagedList
        read={read}
        rows={(tree) => {
          const list = caseTypeRows(tree, q.toLowerCase());
          return { list, count: list.length };
        }}
        empty={{ icon: 'diagram-tree', title: q ? t('manage.legal.noMatch') : t('manage.legal.noCaseTypes') }}
        rowKey={(row) => row.node.id}
        rowTestId="legal-case-type"
        columns={[
          {
            header: t('manage.legal.caseType'),
            wrap: true,
            cell: ({ node, depth }) => (
              <span className="legal__case-type" style={{ paddingLeft: depth * 20 }}>
                {node.name}
              </span>
            ),
          },
          {
            header: t('manage.legal.state'),
            cell: ({ node }) =>
              node.state === disabledCaseType ? <Tag minimal>{t('manage.legal.disabled')}</Tag> : <Tag minimal intent="success">{t('manage.legal.enabled')}</Tag>,
          },
          { header: t('manage.legal.templates'), wrap: true, cell: ({ node }) => node.templateList.map((template) => template.name).join('、') || '--' },
        ]}
      />
    </div>
  );
}

/** Law firms, lawyers and case types (navigation entry): read-only lists, kept for offline reading. */
export function LegalScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string>('lawFirms');
  return (
    <section className="manage" data-testid="legal">
      <h2 className="manage__title">{t('manage.legal.title')}</h2>
      <Tabs id="legal-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} animate={false} renderActiveTabPanelOnly>
        <Tab id="lawFirms" title={t('manage.legal.lawFirmsTab')} panel={<LawFirmsPanel />} />
        <Tab id="lawyers" title={t('manage.legal.lawyersTab')} panel={<LawyersPanel />} />
        <Tab id="caseTypes" title={t('manage.legal.caseTypesTab')} panel={<CaseTypesPanel />} />
      </Tabs>
    </section>
  );
}
