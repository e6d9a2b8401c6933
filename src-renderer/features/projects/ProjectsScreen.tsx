import { useState } from 'react';
import { Button, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../../src-shared/api/projects';
import { canChangeProject } from '../../../src-shared/rules/projects';
import { LinkButton } from '../../app/LinkButton';
import { formatDateTime } from '../../i18n/format';
import { Pager } from '../ledger/Pager';
import { DeleteAlert } from '../manage/DeleteAlert';
import { ReadState } from '../manage/ReadState';
import { SearchBox } from '../manage/SearchBox';
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
  const { answer, error } = useServerRead('projectList', { query: { pageNum: paging.pageNum, pageSize: paging.pageSize, q: paging.q } });
  const write = useServerWrite();
  const [editing, setEditing] = useState<Project | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);

  return (
    <section className="manage" data-testid="projects">
      <header className="manage__header">
        <h2 className="manage__title">{t('manage.projects.title')}</h2>
        <SearchBox placeholder={t('manage.projects.searchPlaceholder')} onSearch={paging.search} testId="projects-search" />
        <Button icon="add" intent="primary" text={t('manage.projects.create')} onClick={() => setEditing('new')} data-testid="projects-create" />
      </header>
      <ReadState answer={answer} error={error}>
        {(page) =>
          page.count === 0 ? (
            <NonIdealState icon="projects" title={paging.q ? t('manage.projects.emptyFiltered') : t('manage.projects.empty')} />
          ) : (
            <>
              <div className="manage__table">
                <HTMLTable compact striped interactive>
                  <thead>
                    <tr>
                      <th>{t('manage.projects.name')}</th>
                      <th>{t('manage.projects.description')}</th>
                      <th>{t('manage.projects.contractCount')}</th>
                      <th>{t('manage.projects.createdByName')}</th>
                      <th>{t('manage.updateTime')}</th>
                      <th>{t('manage.actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.list.map((project) => (
                      <tr key={project.id} data-testid="project-row">
                        <td className="manage__text">
                          <LinkButton to={`/projects/${project.id}`} variant="minimal" intent="primary" text={project.name} />
                        </td>
                        <td className="manage__text">{project.description || '--'}</td>
                        <td>{project.contractCount}</td>
                        <td>{project.createdByName}</td>
                        <td>{formatDateTime(project.updateTime, i18n.language)}</td>
                        <td>
<div className="manage__row-actions">
                          {user && canChangeProject(user, project) && (
                            <>
                              <Button variant="minimal" icon="edit" text={t('manage.edit')} onClick={() => setEditing(project)} />
                              <Button variant="minimal" icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setDeleting(project)} />
                            </>
                          )}
                        </div>
</td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </div>
              <Pager pageNum={paging.pageNum} pageSize={paging.pageSize} total={page.count} onPageChange={paging.setPageNum} onPageSizeChange={paging.setPageSize} />
            </>
          )
        }
      </ReadState>
      {editing && <ProjectDialog project={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <DeleteAlert
          name={deleting.name}
          onClose={() => setDeleting(null)}
          onConfirm={() => write('projectDelete', { params: { id: deleting.id } })}
        />
      )}
    </section>
  );
}
