import type { IpStatus } from '../domain/intellectual-property';

/** The life of a right: filed rights are granted, abandoned or refused; granted ones expire or are invalidated; an expired one may be restored. */
export const nextIpStatuses: Record<IpStatus, readonly IpStatus[]> = {
  filed: ['registered', 'abandoned', 'invalidated'],
  registered: ['expired', 'invalidated'],
  expired: ['registered'],
  invalidated: [],
  abandoned: [],
};
