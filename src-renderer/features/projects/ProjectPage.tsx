import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { SerializedError } from '@reduxjs/toolkit';
import type { AppError } from '../../../src-shared/errors';
import { canChangeProject } from '../../../src-shared/rules/projects';
import { LinkButton } from '../../app/LinkButton';
import { showFailure } from '../../app/toaster';
import { openRoute } from '../contracts/openRoute';
import { DeleteAlert } from '../manage/DeleteAlert';
import { failureText } from '../manage/issues';
import { ListHeader, ManagedList } from '../manage/ManagedList';
import { ReadState } from '../manage/ReadState';
import { useServerRead, useServerWrite } from '../manage/serverData';
import { useCurrentUser } from '../manage/useCurrentUser';
import { usePaging } from '../manage/usePaging';
import { AddContractsDialog } from './AddContractsDialog';
import { ProjectDialog } from './ProjectDialog';
import '../manage/manage.css';

/** A project's page (/projects/:id): what it is, and its contracts: add, remove, open. */
export function ProjectPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const paging = usePaging();
  const project = useServerRead('projectGet', { params: { id } });
  const contracts = useServerRead('projectContracts', { params: { id }, query: { pageNum: paging.pageNum, pageSize: paging.pageSize } });
  const write = useServerWrite();
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'add' | null>(null);

  function remove(contractId: string) {
    write('projectRemoveContracts', { params: { id }, query: { contractIds: contractId } }).catch((cause: unknown) =>
      showFailure(failureText(t, cause as AppError | SerializedError)),
    );
  }

  return (
    <section className="manage" data-testid="project-page">
      <LinkButton to="/projects" icon="arrow-left" variant="minimal" text={t('manage.projects.back')} className="manage__back" />
      <ReadState answer={project.answer} error={project.error}>
        {(shown) => (
          <>
            <header className="manage__header">
              <h2 className="manage__title" data-testid="project-name">
                {shown.name}
              </h2>
              <span className="manage__muted">{t('manage.projects.createdBy', { name: shown.createdByName })}</span>
              {user && canChangeProject(user, shown) && (
                <>
                  <Button icon="edit" text={t('manage.edit')} onClick={() => setDialog('edit')} data-testid="project-edit" />
                  <Button icon="trash" intent="danger" text={t('manage.delete')} onClick={() => setDialog('delete')} data-testid="project-delete" />
                </>
              )}
            </header>
            {shown.description && <p className="manage__description">{shown.description}</p>}
            {dialog === 'edit' && <ProjectDialog project={shown} onClose={() => setDialog(null)} />}
            {dialog === 'delete' && (
              <DeleteAlert
                name={shown.name}
                onClose={() => setDialog(null)}
                onConfirm={() => write('projectDelete', { params: { id } })}
                onDeleted={() => void navigate('/projects')}
              />
            )}
          </>
        )}
      </ReadState>
      <ListHeader title={t('manage.projects.contracts')} subtitle>
        <Button icon="add" intent="primary" text={t('manage.projects.addContracts')} onClick={() => setDialog('add')} data-testid="project-add-contracts" />
      </ListHeader>
      <ManagedList
        read={contracts}
        rows={(page) => page}
        paging={paging}
        empty={{ icon: 'document', title: t('manage.projects.noContracts') }}
        rowKey={(contract) => contract.id}
        rowTestId="project-contract"
        columns={[
          {
            header: t('manage.projects.contractName'),
            wrap: true,
            cell: (contract) => (
              <Button variant="minimal" intent="primary" text={contract.name} onClick={() => openRoute(`/standingBook/detail?${new URLSearchParams({ id: contract.id })}`, (to) => void navigate(to))} />
            ),
          },
          { header: t('manage.projects.contractNumber'), cell: (contract) => contract.contractNumber ?? '--' },
          { header: t('manage.projects.counterpart'), wrap: true, cell: (contract) => contract.counterpartName ?? '--' },
          { header: t('manage.projects.responsible'), cell: (contract) => contract.responsibleUserName ?? '--' },
        ]}
        actions={(contract) => <Button variant="minimal" icon="remove" text={t('manage.projects.remove')} onClick={() => remove(contract.id)} />}
      />
      {dialog === 'add' && <AddContractsDialog projectId={id} onClose={() => setDialog(null)} />}
    </section>
  );
}
