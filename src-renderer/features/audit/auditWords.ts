import { useMemo } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useTranslation } from 'react-i18next';
import type { AuditEvent } from '../../../src-shared/api/audit';
import { catalogs } from '../../../src-shared/i18n/catalogs';
import { auditActionText, auditChangeText, auditEntityText, auditFieldsText, type FormFieldLabel } from '../../../src-shared/i18n/audit-words';
import { useContractDetailQuery, useTemplateQuery } from '../../api/api';
import { contractFormFields } from '../contracts/draftValues';
import { shownLanguage } from '../../i18n/language';
import { useServerRead } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';

/** The audit trail's entity, action and field codes in the words of the UI's language. */
export function auditWords(language: string) {
  const catalog = catalogs[shownLanguage(language)];
  return {
    action: (action: string) => auditActionText(catalog, action),
    entity: (entity: string) => auditEntityText(catalog, entity),
    /** The changed fields' names, each once. */
    fields: (changes: Record<string, unknown>, formLabel?: FormFieldLabel) => auditFieldsText(catalog, Object.keys(changes), formLabel).join(', '),
    /** Every change with its values, one a line. */
    changes: (event: Pick<AuditEvent, 'entity' | 'changes'>, formLabel?: FormFieldLabel) =>
      Object.entries(event.changes)
        .map(([field, change]) => auditChangeText(catalog, event.entity, field, change, formLabel))
        .join('\n'),
  };
}

/**
 * A contract's form field labels by its template, as this device keeps the contract (the
 * replica) and its template; undefined while unknown, so the fields are named generically.
 */
export function useContractFormLabel(contractId: string | null): FormFieldLabel | undefined {
  const { t } = useTranslation();
  const { data: contract } = useContractDetailQuery(contractId ?? skipToken);
  const { data: template } = useTemplateQuery(contract?.templateId ?? skipToken);
  if (!contract) return undefined;
  const fields = contractFormFields(contract.templateId, template, t);
  return fields ? (fieldId) => fields.find((field) => field.id === fieldId)?.name : undefined;
}

/**
 * A recorded device in words, never its id: 'this device' for the one reading, else its name where
 * the reader's devices (an administrator's: the organisation's) list it, else 'another device'.
 */
export function useDeviceText(): (device: string) => string {
  const { t } = useTranslation();
  const isAdmin = useCurrentUser()?.role === 'admin';
  const mine = useServerRead('myDevices');
  const organisation = useServerRead('adminDevices', {}, { skip: !isAdmin });
  const known = useMemo(
    () => new Map([...(organisation.answer?.value ?? []), ...(mine.answer?.value ?? [])].map((device) => [device.id, device.current ? t('devices.thisDevice') : device.name])),
    [mine.answer, organisation.answer, t],
  );
  return (device) => known.get(device) ?? t('audit.anotherDevice');
}
