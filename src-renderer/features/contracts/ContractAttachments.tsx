import { Button, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { uploadValueSchema, type FormField, type UploadValue } from '../../../src-shared/form/field-config';
import type { FormServices } from '../contract-form';

const attachmentFieldTypes: readonly FormField['type'][] = ['upload', 'customAttachment'];

/** The files the contract's upload fields hold, each with the label of its field. */
export function contractAttachments(fields: readonly FormField[], values: Readonly<Record<string, unknown>>): { field: FormField; file: UploadValue }[] {
  return fields.flatMap((field) => {
    if (!attachmentFieldTypes.includes(field.type)) return [];
    const parsed = uploadValueSchema.safeParse(values[field.id]);
    return parsed.success ? [{ field, file: parsed.data }] : [];
  });
}

/**
 * The contract page's attachments and archive: its upload fields' files, each opened the way the
 * form opens one (the core downloads it and hands it to the system: 'files.open').
 */
export function ContractAttachments({ fields, values, services }: { fields: readonly FormField[]; values: Readonly<Record<string, unknown>>; services: FormServices }) {
  const { t } = useTranslation();
  const attachments = contractAttachments(fields, values);
  if (attachments.length === 0) {
    return (
      <div data-testid="contract-attachments-none">
        <NonIdealState icon="paperclip" title={t('contractPage.attachments.none')} />
      </div>
    );
  }
  return (
    <HTMLTable compact striped className="contract-page__table" data-testid="contract-attachments">
      <thead>
        <tr>
          <th>{t('contractPage.attachments.field')}</th>
          <th>{t('contractPage.attachments.file')}</th>
          <th aria-label={t('ledger.columns.operation')} />
        </tr>
      </thead>
      <tbody>
        {attachments.map(({ field, file }) => (
          <tr key={field.id} data-testid="contract-attachment">
            <td>{field.name}</td>
            <td>{file.name}</td>
            <td>
              <Button variant="minimal" size="small" icon="document-open" text={t('contractPage.attachments.open')} onClick={() => services.openRoute(file.file, { newWindow: true })} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
