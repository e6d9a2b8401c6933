import type { TFunction } from 'i18next';
import type { FormField } from '../../../src-shared/domain/performance';
import { defaultFinishAmountPlaceholder, defaultPerformanceNames } from '../../../src-shared/rules/performance';

// A performance's column and completion-field names are data an administrator may rename; while a
// name is still the one a new performance starts with, it is shown in the user's language.

const isDefaultId = (id: string): id is keyof typeof defaultPerformanceNames => Object.prototype.hasOwnProperty.call(defaultPerformanceNames, id);

/** The name of a performance's column or completion field, by its id, as the user reads it. */
export function performanceName(t: TFunction, id: string, name: string): string {
  return isDefaultId(id) && defaultPerformanceNames[id] === name ? t(`fulfilment.defaultNames.${id}`) : name;
}

/** A completion form's fields with their default names and placeholder in the user's language. */
export function shownFields<F extends Pick<FormField, 'id' | 'name' | 'placeholder'>>(t: TFunction, fields: F[]): F[] {
  return fields.map((field) => ({
    ...field,
    name: performanceName(t, field.id, field.name),
    ...(field.placeholder === defaultFinishAmountPlaceholder && { placeholder: t('form.enterPaymentAmount') }),
  }));
}
