import { useMemo, useState } from 'react';
import { Button, Tab, Tabs, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { disabledState } from '../../../src-shared/api/law-firms';
import type { CaseTypeNode } from '../../../src-shared/domain/ledger';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead } from '../manage/serverData';
import { usePaging } from '../manage/usePaging';
import { LegalDialog, useLegalWrite, type LegalEditing } from './LegalDialog';
import '../manage/manage.css';

// Law firms, lawyers and case types (spec 7 "Form support" and case_type/list/by_user): what
// the agent field and the templates offer, searchable, created, edited and disabled here (issue
// 31). Each read is kept, so offline the screen shows it as of its time; writes are online only.

/** A row's state (spec 3: 2 is disabled) as a tag. */
function StateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  return state === disabledState ? <Tag minimal>{t('manage.legal.disabled')}</Tag> : <Tag minimal intent="success">{t('manage.legal.enabled')}</Tag>;
}

/** A row's edit and disable (or enable) buttons. */
function RowActions({ row, onEdit }: { row: LegalEditing; onEdit(): void }) {
  const { t } = useTranslation();
  const { switchState } = useLegalWrite();
  const disabled = row.state === disabledState;
  return (
    <>
      <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={onEdit} data-testid="legal-edit" />
      <Button
        variant="minimal"
        icon={disabled ? 'play' : 'disable'}
        text={disabled ? t('manage.legal.enable') : t('manage.legal.disable')}
        onClick={() => void switchState(row)}
        data-testid="legal-switch-state"
      />
    </>
  );
}

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
  const [editing, setEditing] = useState<LegalEditing | null>(null);
  const asEditing = (firm: { id: string; name: string; state: number }): LegalEditing => ({ kind: 'lawFirm', id: firm.id, name: firm.name, state: firm.state });
  return (
    <div className="manage" data-testid="legal-law-firms">
      <ListHeader search={{ placeholder: t('manage.legal.searchLawFirms'), onSearch: paging.search, testId: 'legal-law-firm-search' }}>
        <Button icon="add" intent="primary" text={t('manage.legal.createLawFirm')} onClick={() => setEditing({ kind: 'lawFirm', id: null, name: '', state: 1 })} data-testid="legal-create" />
      </ListHeader>
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
          { header: t('manage.legal.state'), cell: (firm) => <StateTag state={firm.state} /> },
        ]}
        actions={(firm) => <RowActions row={asEditing(firm)} onEdit={() => setEditing(asEditing(firm))} />}
      />
      {editing && <LegalDialog editing={editing} onClose={() => setEditing(null)} />}
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
  const [editing, setEditing] = useState<LegalEditing | null>(null);
  const asEditing = (lawyer: { id: string; name: string; state: number; lawFirmID: string }): LegalEditing => ({ kind: 'lawyer', ...lawyer });
  return (
    <div className="manage" data-testid="legal-lawyers">
      <ListHeader search={{ placeholder: t('manage.legal.searchLawyers'), onSearch: paging.search, testId: 'legal-lawyer-search' }}>
        <Button icon="add" intent="primary" text={t('manage.legal.createLawyer')} onClick={() => setEditing({ kind: 'lawyer', id: null, name: '', state: 1, lawFirmID: '' })} data-testid="legal-create" />
      </ListHeader>
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
          { header: t('manage.legal.state'), cell: (lawyer) => <StateTag state={lawyer.state} /> },
        ]}
        actions={(lawyer) => <RowActions row={asEditing(lawyer)} onEdit={() => setEditing(asEditing(lawyer))} />}
      />
      {editing && <LegalDialog editing={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

interface CaseTypeRow {
  node: CaseTypeNode;
  depth: number;
  parent: { id: string; name: string } | null;
}

/** The tree in reading order, each node with its depth; a search keeps matching nodes with the path to them. */
function caseTypeRows(nodes: readonly CaseTypeNode[], q: string, depth = 0, parent: CaseTypeRow['parent'] = null): CaseTypeRow[] {
  return nodes.flatMap((node) => {
    const below = caseTypeRows(node.children, q, depth + 1, { id: node.id, name: node.name });
    const matches = !q || node.name.toLowerCase().includes(q) || node.templateList.some((template) => template.name.toLowerCase().includes(q));
    return matches || below.length > 0 ? [{ node, depth, parent }, ...below] : [];
  });
}

/** The case types the user may use, as a tree: enabled or disabled, and the templates of each. */
function CaseTypesPanel() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const read = useServerRead('caseTypeTree');
  const [editing, setEditing] = useState<LegalEditing | null>(null);
  const asEditing = ({ node, parent }: CaseTypeRow): LegalEditing => ({ kind: 'caseType', id: node.id, name: node.name, state: node.state, parent });
  return (
    <div className="manage" data-testid="legal-case-types">
      <ListHeader search={{ placeholder: t('manage.legal.searchCaseTypes'), onSearch: setQ, testId: 'legal-case-type-search' }}>
        <Button icon="add" intent="primary" text={t('manage.legal.createCaseType')} onClick={() => setEditing({ kind: 'caseType', id: null, name: '', state: 1, parent: null })} data-testid="legal-create" />
      </ListHeader>
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
          { header: t('manage.legal.state'), cell: ({ node }) => <StateTag state={node.state} /> },
          { header: t('manage.legal.templates'), wrap: true, cell: ({ node }) => node.templateList.map((template) => template.name).join('、') || '--' },
        ]}
        actions={(row) => (
          <>
            <Button
              variant="minimal"
              icon="add"
              text={t('manage.legal.addChild')}
              onClick={() => setEditing({ kind: 'caseType', id: null, name: '', state: 1, parent: { id: row.node.id, name: row.node.name } })}
              data-testid="legal-add-child"
            />
            <RowActions row={asEditing(row)} onEdit={() => setEditing(asEditing(row))} />
          </>
        )}
      />
      {editing && <LegalDialog editing={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

/** Law firms, lawyers and case types (navigation entry): lists kept for offline reading, written online. */
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
