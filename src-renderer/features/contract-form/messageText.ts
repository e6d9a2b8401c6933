import type { TFunction } from 'i18next';
import type { FormMessage } from '../../../src-shared/form/messages';

/** A form message in the UI language (the catalogs' `form` section has every key). */
export function formMessageText(t: TFunction, message: FormMessage): string {
  return t(`form.${message.key}`, { ...message.params, defaultValue: message.text });
}
