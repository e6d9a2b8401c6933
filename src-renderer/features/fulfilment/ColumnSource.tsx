import { Button, Icon, Menu, MenuItem, Popover, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { relatableColumnTypes, type SheetColumn } from '../../../src-shared/domain/performance';
import type { FormField } from '../../../src-shared/form/field-config';
import { sourceFieldsFor } from '../../../src-shared/rules/contract-sources';

// Where a sheet column's cells may come from in the contract (spec 5): a column that follows a
// contract field says which (its cells are that field's value, read-only); the others of the
// relatable types offer extraction, filling every editable row from a field of the contract once.

export function ColumnSource({ column, fields, onExtract }: { column: SheetColumn; fields: readonly FormField[] | undefined; onExtract(field: FormField): void }) {
  const { t } = useTranslation();
  if (!relatableColumnTypes.includes(column.type) || !fields) return null;
  const relatedId = column.config?.relatedFieldId;
  if (relatedId !== undefined) {
    const name = fields.find((field) => field.id === relatedId)?.name ?? relatedId;
    return (
      <Tooltip content={t('sheetCells.related', { field: name })}>
        <Icon icon="link" size={12} className="sheet-cell__source" data-testid={`sheet-related-${column.id}`} aria-label={t('sheetCells.related', { field: name })} />
      </Tooltip>
    );
  }
  const sources = sourceFieldsFor(column, fields);
  return (
    <Popover
      placement="bottom-start"
      content={
        <Menu aria-label={t('sheetCells.extractTitle')}>
          {sources.length === 0 && <MenuItem disabled text={t('sheetCells.extractNone')} />}
          {sources.map((field) => (
            <MenuItem key={field.id} text={field.name} onClick={() => onExtract(field)} />
          ))}
        </Menu>
      }
    >
      <Button size="small" variant="minimal" icon="import" className="sheet-cell__source" data-testid={`sheet-extract-${column.id}`} title={t('sheetCells.extractTitle')} aria-label={t('sheetCells.extract')} />
    </Popover>
  );
}
