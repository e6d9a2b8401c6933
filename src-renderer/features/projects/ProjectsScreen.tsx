import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../../src-shared/api/projects';
import { canChangeProject } from '../../../src-shared/rules/projects';
import { LinkButton } from '../../app/LinkButton';
import { formatDateTime } from '../../i18n/format';
import { DeleteAlert } from '../manage/DeleteAlert';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { usePaging } from '../manage/usePaging';
import { ProjectDialog } from './ProjectDialog';
import '../manage/manage.css';

/** Projects (spec 7): the list with its search and pages; create, and edit or delete by the creator or an administrator. */
export function ProjectsScreen() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const paging = usePaging();
  const read = useServerRead('projectList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q } });
  const write = useServerWrite();
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);

  return (
    <section className="manage" data-testid="projects">
      <ListHeader title={t('manage.projects.title')} search={{ placeholder: t('manage.projects.searchPlaceholder'), onSearch: paging.search, testId: 'projects-search' }}>
        <Button icon="add" intent="primary" text={t('manage.projects.create')} onClick={() => setEditing('new')} data-testid="projects-create" />
      </ListHeader>
      <ManagedList
        read={read}
        rows={(page) => page}
        paging={paging}
        empty={{ icon: 'projects', title: paging.q ? t('manage.projects.emptyFiltered') : t('manage.projects.empty') }}
        rowKey={(project) => project.id}
        rowTestId="project-row"
        columns={[
          { header: t('manage.projects.name'), wrap: true, cell: (project) => <LinkButton to={`/projects/${project.id}`} variant="minimal" intent="primary" text={project.name} /> },
          { header: t('manage.projects.description'), wrap: true, cell: (project) => project.description || '--' },
          { header: t('manage.projects.contractCount'), cell: (project) => project.contractCount },
          { header: t('manage.projects.createdByName'), cell: (project) => project.createdByName },
          { header: t('manage.updateTime'), cell: (project) => formatDateTime(project.updateTime, i18n.language) },
        ]}
        // Only the creator or an administrator is offered a change (the server's rule, shared).
        actions={(project) =>
          user && canChangeProject(user, project) ? (
            <>
              <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={() => setEditing(project)} />
              <Button variant="minimal" icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setDeleting(project)} />
            </>
          ) : null
        }
      />
      {editing && <ProjectDialog project={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteAlert name={deleting.name} onClose={() => setDeleting(null)} onConfirm={() => write('projectDelete', { params: { id: deleting.id } })} />}
    </section>
  );
}
