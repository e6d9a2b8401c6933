import { useMemo, useState } from 'react';
import { Button, Callout, FileInput, FormGroup, HTMLSelect, HTMLTable, ProgressBar, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { readDocumentBookmarks } from '../../../src-shared/contract-document/docx';
import { mapDocument, type BookmarkOwner, type BookmarkTarget } from '../../../src-shared/contract-document/mapping';
import { maxTemplateDocumentBytes, type TemplateDocument } from '../../../src-shared/contract-document/schema';
import type { Clause, FieldConfig } from '../../../src-shared/domain/contract-forms';
import { toAppError } from '../../../src-shared/errors';
import { useAppDispatch } from '../../app/hooks';
import { errorText } from '../../i18n/errorText';
import { bridgeOf, uploadThroughCore } from '../contracts/useBridgeFormServices';
import './contract-document.css';

// The template editor's document section (issue 29): the Word document is checked here first
// (a DOCX under the limit whose bookmark names do not collide), uploaded through the core
// (online only, as every template write), and its bookmarks listed with what each maps to, chosen
// there per bookmark, with warnings for bookmarks that map to nothing and fields and clauses that
// map to no bookmark. The template approval page shows the same mapping, read-only: approvers
// approve what gets printed.

export interface TemplateDocumentSectionProps {
  /** The template's fields as the editor holds them (their `bookmarkNames`). */
  fields: readonly FieldConfig[];
  /** The template's clauses (their `bookmarkName`). */
  clauses: readonly Clause[];
  /** The template's current document; null when it has none. */
  document: TemplateDocument | null;
  /** A document uploaded (the template write sends `document: { fileId }`), or null when removed. */
  onChange(document: TemplateDocument | null): void;
  /** A bookmark given to a field or clause, or to nothing (null). */
  onMap(bookmark: string, owner: BookmarkOwner | null): void;
  disabled?: boolean;
}

export interface DocumentMappingProps {
  fields: readonly FieldConfig[];
  clauses: readonly Clause[];
  document: TemplateDocument;
  /** Maps a bookmark; without it, the mapping is only shown. */
  onMap?: (bookmark: string, owner: BookmarkOwner | null) => void;
}

/** An owner as the mapping select's value: `field:<key>` or `clause:<label>`, '' for nothing. */
const ownerValue = (target: BookmarkTarget | null) => (target === null ? '' : target.kind === 'field' ? `field:${target.id}` : `clause:${target.labelID}`);

function ownerOf(value: string): BookmarkOwner | null {
  const [kind, ...rest] = value.split(':');
  const id = rest.join(':');
  if (kind === 'field') return { kind, id };
  if (kind === 'clause') return { kind, labelID: id };
  return null;
}

/** The document's bookmarks with what each maps to (a choice when `onMap` is given), and the mapping's warnings. */
export function DocumentMapping({ fields, clauses, document, onMap }: DocumentMappingProps) {
  const { t } = useTranslation();
  const mapping = useMemo(() => mapDocument(document.bookmarks, fields, clauses), [document, fields, clauses]);
  const choices = useMemo(
    () => [
      { value: '', label: t('contractDocument.section.nothing') },
      ...fields.filter((field) => field.type !== 'clause').map((field) => ({ value: `field:${field.id}`, label: t('contractDocument.section.field', { name: field.name }) })),
      ...clauses.map((clause) => ({ value: `clause:${clause.labelID}`, label: t('contractDocument.section.clause', { name: clause.name }) })),
    ],
    [t, fields, clauses],
  );
  const target = (bookmark: string, mapped: BookmarkTarget | null) =>
    onMap ? (
      <HTMLSelect
        minimal
        fill
        aria-label={t('contractDocument.section.mapBookmark', { bookmark })}
        data-testid="template-document-map"
        value={ownerValue(mapped)}
        onChange={(event) => onMap(bookmark, ownerOf(event.currentTarget.value))}
        options={choices}
      />
    ) : mapped === null ? (
      <Tag minimal intent="warning">{t('contractDocument.section.nothing')}</Tag>
    ) : mapped.kind === 'field' ? (
      t('contractDocument.section.field', { name: mapped.name })
    ) : (
      t('contractDocument.section.clause', { name: mapped.name })
    );
  const names = (list: readonly { name: string }[]) => list.map((entry) => entry.name).join(t('contractForm.listSeparator'));
  const warnings = [
    ...mapping.collisions.map((collision) => ({ intent: 'danger' as const, text: t('contractDocument.section.collision', { bookmark: collision.bookmark, owners: collision.owners.join(t('contractForm.listSeparator')) }) })),
    ...(document.bookmarks.length === 0 ? [{ intent: 'warning' as const, text: t('contractDocument.section.noBookmarks') }] : []),
    ...(mapping.unmappedBookmarks.length > 0 ? [{ intent: 'warning' as const, text: t('contractDocument.section.unmappedBookmarks', { names: mapping.unmappedBookmarks.join(t('contractForm.listSeparator')) }) }] : []),
    ...(mapping.fieldsWithoutBookmark.length > 0 ? [{ intent: 'warning' as const, text: t('contractDocument.section.fieldsWithoutBookmark', { names: names(mapping.fieldsWithoutBookmark) }) }] : []),
    ...(mapping.clausesWithoutBookmark.length > 0 ? [{ intent: 'warning' as const, text: t('contractDocument.section.clausesWithoutBookmark', { names: names(mapping.clausesWithoutBookmark) }) }] : []),
  ];

  return (
    <>
      <div className="template-document__warnings" data-testid="template-document-warnings">
        {warnings.length === 0 ? (
          <Callout intent="success" icon="tick">
            {t('contractDocument.section.allMapped')}
          </Callout>
        ) : (
          warnings.map((warning) => (
            <Callout key={warning.text} intent={warning.intent} icon={warning.intent === 'danger' ? 'error' : 'warning-sign'}>
              {warning.text}
            </Callout>
          ))
        )}
      </div>
      {mapping.bookmarks.length > 0 && (
        <div className="template-document__table">
          <HTMLTable compact striped data-testid="template-document-bookmarks">
            <thead>
              <tr>
                <th>{t('contractDocument.section.bookmarks', { count: mapping.bookmarks.length })}</th>
                <th>{t('contractDocument.section.mapsTo')}</th>
              </tr>
            </thead>
            <tbody>
              {mapping.bookmarks.map((bookmark) => (
                <tr key={bookmark.name} data-bookmark={bookmark.name}>
                  <td>{bookmark.name}</td>
                  <td>{target(bookmark.name, bookmark.target)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </>
  );
}

const megabytes = maxTemplateDocumentBytes / 1024 / 1024;

export function TemplateDocumentSection({ fields, clauses, document, onChange, onMap, disabled = false }: TemplateDocumentSectionProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function choose(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    setProgress(0);
    try {
      // Checked on this device first: a wrong file is refused before any byte moves.
      const bookmarks = file.size > maxTemplateDocumentBytes ? [] : readDocumentBookmarks(new Uint8Array(await file.arrayBuffer()));
      const uploaded = await uploadThroughCore(dispatch(bridgeOf), file, { onProgress: setProgress, signal: new AbortController().signal }, 'template');
      onChange({ fileId: uploaded.id, name: uploaded.name, size: file.size, bookmarks });
    } catch (cause) {
      setProblem(errorText(t, toAppError(cause)));
    } finally {
      setProgress(null);
    }
  }

  return (
    <section className="template-document" data-testid="template-document">
      <FormGroup label={t('contractDocument.section.title')} labelFor="template-document-file" helperText={t('contractDocument.section.hint', { megabytes })}>
        <div className="template-document__file">
          {document ? (
            <Tag large icon="document" data-testid="template-document-name">
              {document.name} · {t('contractDocument.section.size', { size: Math.max(1, Math.round(document.size / 1024)) })}
            </Tag>
          ) : (
            <span data-testid="template-document-none">{t('contractDocument.section.none')}</span>
          )}
          <FileInput
            disabled={disabled || progress !== null}
            text={document ? t('contractDocument.section.replace') : t('contractDocument.section.upload')}
            buttonText={t('contractDocument.section.browse')}
            inputProps={{ id: 'template-document-file', accept: '.docx' }}
            onInputChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
          {document && <Button icon="trash" variant="minimal" disabled={disabled || progress !== null} data-testid="template-document-remove" text={t('contractDocument.section.remove')} onClick={() => onChange(null)} />}
        </div>
      </FormGroup>
      {progress !== null && <ProgressBar intent="primary" value={progress} aria-label={t('contractDocument.section.uploading')} />}
      {problem && (
        <Callout intent="danger" icon="error" role="alert" data-testid="template-document-problem">
          {problem}
        </Callout>
      )}
      {document && <DocumentMapping fields={fields} clauses={clauses} document={document} {...(!disabled && { onMap })} />}
    </section>
  );
}
