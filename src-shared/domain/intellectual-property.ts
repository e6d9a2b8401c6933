// The intellectual-property register (spec 7, "Intellectual property helpers"). The spec shows no
// payloads; these are the kinds, states and record kinds a register of rights needs.

export const ipTypes = ['patent', 'utility_model', 'design', 'trademark', 'copyright', 'software_copyright', 'domain_name', 'trade_secret'] as const;
export type IpType = (typeof ipTypes)[number];

/** filed → registered → expired/invalidated/abandoned; a transferred right keeps its status. */
export const ipStatuses = ['filed', 'registered', 'expired', 'invalidated', 'abandoned'] as const;
export type IpStatus = (typeof ipStatuses)[number];

/** What happened to a right over its life: fees and renewals, licences, pledges, disputes. */
export const ipRecordKinds = ['renewal', 'annual_fee', 'license', 'pledge', 'litigation', 'examination', 'other'] as const;
export type IpRecordKind = (typeof ipRecordKinds)[number];

/** The columns of the import template and of a CSV import, in order. */
export const ipImportColumns = [
  'name', 'type', 'registrationNumber', 'ownerOrganizationName', 'status', 'applicationDate', 'registrationDate', 'expirationDate', 'remark',
] as const;
