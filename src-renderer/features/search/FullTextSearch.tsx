import { useEffect, useState, type ReactNode } from 'react';
import { Button, Callout, InputGroup, NonIdealState, PopoverNext, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { skipToken } from '@reduxjs/toolkit/query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useNavigate } from 'react-router-dom';
import { matchEnd, matchStart, type FullTextHit, type FullTextPage } from '../../../src-shared/ipc/archive';
import { errorText } from '../../i18n/errorText';
import { useFullTextSearchQuery } from '../archive/archiveApi';
import { openRoute } from '../contracts/openRoute';
import { ContractStatusCell } from '../ledger/ContractStatusCell';
import './search.css';

// The ledger's full-text search box (issue 14): contracts found in the replica by a word in their
// name, number, counterparty, form or archived PDF, best first, the matched words highlighted.
// It answers from this device, so it works offline.

const pageSize = 10;
/** Typing pauses this long before a search runs. */
const debounceMs = 200;
/** While the index is being built, the open results are asked again this often. */
const indexingPollMs = 2000;

/** Text with the core's match marks as <mark> elements. */
export function Highlighted({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let rest = text;
  for (let key = 0; rest.length > 0; key += 1) {
    const start = rest.indexOf(matchStart);
    const end = start < 0 ? -1 : rest.indexOf(matchEnd, start);
    if (start < 0 || end < 0) {
      parts.push(rest.replaceAll(matchStart, '').replaceAll(matchEnd, ''));
      break;
    }
    if (start > 0) parts.push(rest.slice(0, start));
    parts.push(<mark key={key}>{rest.slice(start + 1, end)}</mark>);
    rest = rest.slice(end + 1);
  }
  return <>{parts}</>;
}

/** "Contracts found: 12", or "Contracts found: 1,000+" past the core's count cap. */
export function foundText(t: TFunction, page: Pick<FullTextPage, 'count' | 'more'>): string {
  return page.more ? t('archive.search.foundMore', { count: page.count }) : t('archive.search.found', { count: page.count });
}

/** How far the index being built after a first sync is, and that the rest is not found yet. */
export function indexingText(t: TFunction, indexing: NonNullable<FullTextPage['indexing']>): string {
  return t('archive.search.indexing', { indexed: indexing.indexed, total: Math.max(indexing.indexed, indexing.total) });
}

function IndexingNote({ indexing }: { indexing: NonNullable<FullTextPage['indexing']> }) {
  const { t } = useTranslation();
  return (
    <Callout className="full-text-results__indexing" data-testid="full-text-indexing" intent="primary" icon="build" compact>
      {indexingText(t, indexing)}
      <ProgressBar intent="primary" stripes={false} value={indexing.total === 0 ? 0 : Math.min(1, indexing.indexed / indexing.total)} />
    </Callout>
  );
}

function detailPath(contractId: string): string {
  return `/standingBook/detail?${new URLSearchParams({ contractId, mode: 'contract' })}`;
}

function Hit({ hit, onOpen }: { hit: FullTextHit; onOpen(): void }) {
  const { t } = useTranslation();
  return (
    <a
      className="full-text-results__item"
      data-testid="full-text-hit"
      href={detailPath(hit.contractId)}
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
    >
      <div className="full-text-results__name">
        <Highlighted text={hit.name} />
      </div>
      <div className="full-text-results__meta">
        {hit.contractNumber && <Highlighted text={hit.contractNumber} />}
        {hit.contractNumber && hit.counterpartName && ' · '}
        {hit.counterpartName && <Highlighted text={hit.counterpartName} />} <ContractStatusCell status={hit.status} />
      </div>
      {hit.excerpt && (
        <div className="full-text-results__excerpt" data-testid="full-text-excerpt">
          <Tag minimal>{hit.excerpt.source === 'pdf' ? t('archive.search.fromPdf') : t('archive.search.fromForm')}</Tag>{' '}
          <Highlighted text={hit.excerpt.text} />
        </div>
      )}
    </a>
  );
}

export function FullTextSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(text.trim());
      setPageNum(1);
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [text]);

  // Asked again while the index is built, so the results and the note follow it.
  const [indexing, setIndexing] = useState(false);
  const { data, error, isFetching } = useFullTextSearchQuery(q === '' ? skipToken : { q, pageNum, pageSize }, { pollingInterval: open && indexing ? indexingPollMs : 0 });
  if (Boolean(data?.indexing) !== indexing) setIndexing(Boolean(data?.indexing));
  const pages = data ? Math.max(1, Math.ceil(data.count / pageSize)) : 1;

  let results: ReactNode;
  if (error) results = <Callout intent="danger" icon="error" title={t('archive.search.failed')}>{errorText(t, error)}</Callout>;
  else if (!data) results = <Spinner size={24} />;
  else if (data.count === 0) results = <NonIdealState icon="search" title={t('archive.search.none')} />;
  else {
    results = (
      <>
        {data.list.map((hit) => (
          <Hit
            key={hit.contractId}
            hit={hit}
            onOpen={() => {
              setOpen(false);
              openRoute(detailPath(hit.contractId), (to) => void navigate(to), { newWindow: true });
            }}
          />
        ))}
        <div className="full-text-results__footer">
          <span data-testid="full-text-count">{foundText(t, data)}</span>
          {pages > 1 && (
            <span>
              <Button variant="minimal" size="small" icon="chevron-left" text={t('archive.search.previous')} disabled={pageNum <= 1 || isFetching} onClick={() => setPageNum(pageNum - 1)} />
              <Button variant="minimal" size="small" endIcon="chevron-right" text={t('archive.search.next')} disabled={pageNum >= pages || isFetching} onClick={() => setPageNum(pageNum + 1)} />
            </span>
          )}
        </div>
      </>
    );
  }

  return (
    <PopoverNext
      isOpen={open && q !== ''}
      targetTagName="div"
      onInteraction={(next) => setOpen(next)}
      autoFocus={false}
      enforceFocus={false}
      placement="bottom-end"
      content={
        <div className="full-text-results" data-testid="full-text-results">
          {data?.indexing && <IndexingNote indexing={data.indexing} />}
          {results}
        </div>
      }
    >
      <InputGroup
        className="full-text-search"
        data-testid="full-text-search"
        type="search"
        leftIcon="search-text"
        aria-label={t('archive.search.label')}
        placeholder={t('archive.search.placeholder')}
        value={text}
        onFocus={() => setOpen(true)}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      />
    </PopoverNext>
  );
}
