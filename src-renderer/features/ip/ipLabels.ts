import type { TFunction } from 'i18next';
import type { IpRecordKind, IpStatus, IpType } from '../../../src-shared/domain/intellectual-property';

/** The register's kinds, states and record kinds in the UI language. */
export function ipLabels(t: TFunction) {
  return {
    type: (type: IpType) => t('manage.ip.types', { returnObjects: true })[type],
    status: (status: IpStatus) => t('manage.ip.statuses', { returnObjects: true })[status],
    recordKind: (kind: IpRecordKind) => t('manage.ip.recordKinds', { returnObjects: true })[kind],
  };
}
