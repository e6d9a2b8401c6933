import { Callout, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '../../types';
import { asText, fieldInputId, PreviewText } from './shared';

// Fields the form shows but never edits: numbers and names the system gives, images and custom fields.

/** serialNumber, templateName: the system's text, read-only in every mode. */
export function SystemTextField({ field, value }: FieldProps<string>) {
  return <PreviewText field={field} text={asText(value)} />;
}

/** Only addresses an <img> can load without running anything: web, data images, blobs, same origin. */
const safeImageSource = /^(https?:\/\/|data:image\/(png|jpeg|gif|webp);|blob:|\/(?!\/))/i;

/** image-preview: the image of an address (or of an uploaded file's address). */
export function ImagePreviewField({ field, value }: FieldProps<unknown>) {
  const { t } = useTranslation();
  const source = typeof value === 'object' && value !== null ? asText((value as { file?: unknown }).file) : asText(value);
  if (!safeImageSource.test(source)) return <PreviewText field={field} text={t('contractForm.noImage')} />;
  return <img id={fieldInputId(field.id)} className="contract-form__image" src={source} alt={field.name} data-testid={`image-${field.id}`} />;
}

/** custom: a template's own component, which this app does not run; the value is kept untouched. */
export function CustomField({ field }: FieldProps<unknown>) {
  const { t } = useTranslation();
  return (
    <Callout id={fieldInputId(field.id)} intent={Intent.PRIMARY} compact data-testid={`custom-${field.id}`}>
      {t('contractForm.customField')}
    </Callout>
  );
}
