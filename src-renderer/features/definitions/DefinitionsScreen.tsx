import { useState } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Performance } from '../../../src-shared/domain/performance';
import { formatDateTime } from '../../i18n/format';
import { DeleteAlert } from '../manage/DeleteAlert';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { DefinitionDialog } from './DefinitionDialog';
import { taskTypeName } from './taskTypeName';
import '../manage/manage.css';
import './definitions.css';

/**
 * The organisation's performance definitions (Settings; spec 3 "Performance sheet", spec 7
 * performances): each with its task type, sheet columns and completion fields. Administrators
 * create, edit and delete them while the server can be reached; everyone else, and everyone
 * offline, reads the list as last read.
 */
export function DefinitionsScreen() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const read = useServerRead('performanceList');
  const write = useServerWrite();
  const [editing, setEditing] = useState<Performance | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Performance | null>(null);
  const isAdmin = user?.role === 'admin';

  return (
    <section className="manage" data-testid="definitions">
      <ListHeader title={t('definitions.title')}>
        {isAdmin && <Button icon="add" intent="primary" text={t('definitions.create')} onClick={() => setEditing('new')} data-testid="definitions-create" />}
      </ListHeader>
      {user && !isAdmin && (
        <Callout compact icon="lock" data-testid="definitions-read-only">
          {t('definitions.readOnly')}
        </Callout>
      )}
      <ManagedList
        read={read}
        rows={(value) => ({ list: value.performanceList, count: value.performanceList.length })}
        empty={{ icon: 'properties', title: t('definitions.empty') }}
        rowKey={(performance) => performance.id}
        rowTestId="definition-row"
        columns={[
          { header: t('definitions.name'), wrap: true, cell: (performance) => performance.name },
          { header: t('definitions.taskType'), cell: (performance) => taskTypeName(t, performance.type) },
          { header: t('definitions.columnCount'), cell: (performance) => performance.columns.length },
          { header: t('definitions.fieldCount'), cell: (performance) => performance.fields.length },
          { header: t('definitions.updateTime'), cell: (performance) => formatDateTime(performance.updateTime, i18n.language) },
        ]}
        actions={
          isAdmin
            ? (performance) => (
                <>
                  <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={() => setEditing(performance)} data-testid="definition-edit" />
                  <Button variant="minimal" icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setDeleting(performance)} data-testid="definition-delete" />
                </>
              )
            : undefined
        }
      />
      {editing && <DefinitionDialog key={editing === 'new' ? 'new' : editing.id} performance={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <DeleteAlert name={deleting.name} onClose={() => setDeleting(null)} onConfirm={() => write('performanceDelete', { params: { id: deleting.id } })} />
      )}
    </section>
  );
}
