import { useState } from 'react';
import { Button, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ipOrganizationInputSchema, type ipOrganizationSchema } from '../../../src-shared/api/intellectual-property';
import { DeleteAlert } from '../manage/DeleteAlert';
import { FormDialog } from '../manage/FormDialog';
import { fieldIssues } from '../manage/issues';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead, useServerWrite } from '../manage/serverData';

type Organization = z.infer<typeof ipOrganizationSchema>;

/** The organisations that hold rights: list with search, create, edit, delete. */
export function OrganizationsPanel() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const read = useServerRead('ipOrganizationList', { query: { q } });
  const write = useServerWrite();
  const [editing, setEditing] = useState<Organization | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Organization | null>(null);

  return (
    <div className="manage" data-testid="ip-organizations">
      <ListHeader search={{ placeholder: t('manage.ip.searchOrganizations'), onSearch: setQ, testId: 'ip-org-search' }}>
        <Button icon="add" intent="primary" text={t('manage.ip.createOrganization')} onClick={() => setEditing('new')} data-testid="ip-org-create" />
      </ListHeader>
      <ManagedList
        read={read}
        rows={({ list }) => ({ list, count: list.length })}
        empty={{ icon: 'office', title: t('manage.ip.noOrganizations') }}
        rowKey={(organization) => organization.id}
        rowTestId="ip-org-row"
        columns={[
          { header: t('manage.ip.organizationName'), wrap: true, cell: (organization) => organization.name },
          { header: t('manage.ip.creditCode'), cell: (organization) => organization.creditCode ?? '--' },
          { header: t('manage.ip.contact'), cell: (organization) => [organization.contactName, organization.contactPhone].filter(Boolean).join(' ') || '--' },
          { header: t('manage.ip.propertyCount'), cell: (organization) => organization.propertyCount },
        ]}
        actions={(organization) => (
          <>
            <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={() => setEditing(organization)} />
            <Button variant="minimal" icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setDeleting(organization)} />
          </>
        )}
      />
      {editing && <OrganizationDialog organization={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <DeleteAlert name={deleting.name} onClose={() => setDeleting(null)} onConfirm={() => write('ipOrganizationDelete', { params: { id: deleting.id } })} />
      )}
    </div>
  );
}

function OrganizationDialog({ organization, onClose }: { organization: Organization | null; onClose(): void }) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [fields, setFields] = useState({
    name: organization?.name ?? '',
    creditCode: organization?.creditCode ?? '',
    contactName: organization?.contactName ?? '',
    contactPhone: organization?.contactPhone ?? '',
    remark: organization?.remark ?? '',
  });
  const [issues, setIssues] = useState<Record<string, string>>({});
  const set = (name: keyof typeof fields) => (value: string) => setFields((current) => ({ ...current, [name]: value }));

  async function submit(): Promise<boolean> {
    const blankToNull = (value: string) => (value.trim() === '' ? null : value);
    const checked = ipOrganizationInputSchema.safeParse({
      ...fields,
      creditCode: blankToNull(fields.creditCode),
      contactName: blankToNull(fields.contactName),
      contactPhone: blankToNull(fields.contactPhone),
      version: organization?.version,
    });
    if (!checked.success) {
      setIssues(fieldIssues(checked.error, t));
      return false;
    }
    if (organization) await write('ipOrganizationUpdate', { params: { id: organization.id }, body: checked.data });
    else await write('ipOrganizationCreate', { body: checked.data });
    return true;
  }

  const text = (name: 'name' | 'creditCode' | 'contactName' | 'contactPhone', max: number, required = false) => (
    <FormGroup label={t(`manage.ip.${name === 'name' ? 'organizationName' : name}`)} labelFor={`ip-org-${name}`} labelInfo={required ? '*' : undefined} intent={issues[name] ? 'danger' : 'none'} helperText={issues[name]}>
      <InputGroup id={`ip-org-${name}`} value={fields[name]} maxLength={max} intent={issues[name] ? 'danger' : 'none'} onValueChange={set(name)} />
    </FormGroup>
  );

  return (
    <FormDialog title={organization ? t('manage.ip.editOrganization') : t('manage.ip.createOrganization')} onClose={onClose} onSubmit={submit}>
      {text('name', 200, true)}
      {text('creditCode', 64)}
      {text('contactName', 100)}
      {text('contactPhone', 50)}
      <FormGroup label={t('manage.ip.remark')} labelFor="ip-org-remark">
        <TextArea id="ip-org-remark" value={fields.remark} maxLength={2000} fill rows={3} onChange={(event) => set('remark')(event.currentTarget.value)} />
      </FormGroup>
    </FormDialog>
  );
}
