import { useEffect, useState } from 'react';
import { Callout, FormGroup, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { definitionIssues, definitionMessages } from '../../../src-shared/rules/performance-definitions';
import { performanceCreateSchema, performanceTaskTypes, type FormField, type Performance, type PerformanceTaskType, type SheetColumn } from '../../../src-shared/domain/performance';
import type { AppError } from '../../../src-shared/errors';
import { failureText, issueText } from '../manage/issues';
import { FormDialog } from '../manage/FormDialog';
import { useServerWrite } from '../manage/serverData';
import { useCachedFetch } from '../cached-reads/useCachedRead';
import { performanceName } from '../fulfilment/performanceNames';
import { ColumnsTable, FieldsTable, type Keyed } from './DefinitionTables';
import { taskTypeName } from './taskTypeName';

// The editor of a performance definition (spec 3 "Performance sheet"): its name, task type, the
// sheet's columns and the completion form's fields. A new one starts from its task type's default
// form (GET performances/default_form). Checked with the server's own schema before it is sent,
// the problems shown beside the rows they concern.

interface DefinitionDialogProps {
  /** null creates a performance. */
  performance: Performance | null;
  onClose(): void;
}

let keyCounter = 0;
/** A key for an editor row, kept while the row moves. */
const withKey = <T,>(item: T): Keyed<T> => ({ ...item, key: `row-${++keyCounter}` });
const withoutKey = <T,>({ key: _key, ...item }: Keyed<T>) => item as T;

/** Issues by the joined path of the row they concern ('name', 'columns.2', 'fields.0'). */
export type RowIssues = Record<string, string[]>;

type Issue = Pick<z.core.$ZodIssue, 'path' | 'message'> & { code?: string };

/** Issues in the user's language, by row. */
function rowIssues(t: TFunction, found: readonly Issue[]): RowIssues {
  const issues: RowIssues = {};
  for (const issue of found) {
    const [part, index] = issue.path;
    const where = part === 'columns' || part === 'fields' ? (typeof index === 'number' ? `${part}.${index}` : part) : 'name';
    const text =
      issue.code === 'too_small' && issue.path.at(-1) === 'name'
        ? t('definitions.issues.enterName')
        : issue.code === 'too_small' && where === 'columns'
          ? t('definitions.issues.noColumns')
          : issueText(t, issue.message);
    (issues[where] ??= []).push(text);
  }
  return issues;
}

export function DefinitionDialog({ performance, onClose }: DefinitionDialogProps) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const fetchCached = useCachedFetch();
  const [name, setName] = useState(performance?.name ?? '');
  const [type, setType] = useState<PerformanceTaskType>(performance?.type ?? 'receivable');
  const [columns, setColumns] = useState<Keyed<SheetColumn>[]>(() => (performance?.columns ?? []).map(withKey));
  const [fields, setFields] = useState<Keyed<FormField>[]>(() => (performance?.fields ?? []).map(withKey));
  const [defaults, setDefaults] = useState<{ loading: boolean; failure: AppError | SerializedError | null }>({ loading: performance === null, failure: null });
  const [issues, setIssues] = useState<RowIssues>({});

  // A new performance starts from its task type's default columns and fields (kept for offline reading).
  useEffect(() => {
    if (performance) return;
    let current = true;
    fetchCached('performanceDefaultForm', { query: { type } }).then(
      ({ value }) => {
        if (!current) return;
        setColumns(value.columns.map(withKey));
        setFields(value.fields.map(withKey));
        setDefaults({ loading: false, failure: null });
      },
      (cause: unknown) => current && setDefaults({ loading: false, failure: cause as AppError | SerializedError }),
    );
    return () => {
      current = false;
    };
  }, [performance, type, fetchCached]);

  async function submit(): Promise<boolean> {
    const definition = { name, type, columns: columns.map(withoutKey), fields: fields.map(withoutKey) };
    const checked = performanceCreateSchema.safeParse(definition);
    // A default name is shown in the user's language: a column named as that reads as its twin on the sheet.
    const shown = <T extends { id: string; name: string }>(item: T): T => ({ ...item, name: performanceName(t, item.id, item.name) });
    const twinMessages: readonly string[] = [definitionMessages.duplicateColumnName, definitionMessages.duplicateFieldName];
    const twins = definitionIssues({ columns: definition.columns.map(shown), fields: definition.fields.map(shown) }).filter((issue) => twinMessages.includes(issue.message));
    const found = [...(checked.error?.issues ?? []), ...twins];
    if (!checked.success || found.length > 0) {
      // The same message on one row once (a twin by stored name is a twin by shown name too).
      setIssues(Object.fromEntries(Object.entries(rowIssues(t, found)).map(([where, messages]) => [where, [...new Set(messages)]])));
      return false;
    }
    setIssues({});
    const { sortOrder: _sortOrder, ...body } = checked.data;
    if (performance) await write('performanceUpdate', { params: { id: performance.id }, body: { ...body, version: performance.version } });
    else await write('performanceCreate', { body: checked.data });
    return true;
  }

  const rowsNeedCare = Object.keys(issues).some((where) => where !== 'name');
  return (
    <FormDialog title={performance ? t('definitions.editTitle', { name: performance.name }) : t('definitions.createTitle')} width={1000} onClose={onClose} onSubmit={submit}>
      <div className="definitions__head">
        <FormGroup
          label={t('definitions.name')}
          labelFor="definition-name"
          labelInfo="*"
          intent={issues.name ? 'danger' : 'none'}
          helperText={issues.name?.join(' ')}
          className="definitions__name"
        >
          <InputGroup
            id="definition-name"
            value={name}
            maxLength={100}
            placeholder={t('definitions.namePlaceholder')}
            intent={issues.name ? 'danger' : 'none'}
            onValueChange={setName}
            autoFocus
          />
        </FormGroup>
        <FormGroup label={t('definitions.taskType')} labelFor="definition-type" helperText={performance ? undefined : t('definitions.typeNote')}>
          <HTMLSelect
            id="definition-type"
            value={type}
            onChange={(event) => {
              setType(event.currentTarget.value as PerformanceTaskType);
              // A new performance reads the chosen type's defaults (the effect below).
              if (!performance) setDefaults({ loading: true, failure: null });
            }}
            options={performanceTaskTypes.map((value) => ({ value, label: taskTypeName(t, value) }))}
          />
        </FormGroup>
      </div>
      {rowsNeedCare && (
        <Callout intent="danger" icon="error" className="manage__failure" data-testid="definition-issues">
          {t('definitions.checkRows')}
        </Callout>
      )}
      {defaults.failure && (
        <Callout intent="danger" icon="error" className="manage__failure" role="alert">
          {failureText(t, defaults.failure)}
        </Callout>
      )}
      {defaults.loading ? (
        <Spinner size={20} aria-label={t('definitions.loadingDefaults')} />
      ) : (
        <>
          <h4 className="definitions__section">{t('definitions.sheetColumns')}</h4>
          <ColumnsTable columns={columns} onChange={setColumns} issues={issues} newRow={withKey} />
          <h4 className="definitions__section">{t('definitions.completionFields')}</h4>
          <FieldsTable fields={fields} onChange={setFields} issues={issues} newRow={withKey} />
        </>
      )}
    </FormDialog>
  );
}
