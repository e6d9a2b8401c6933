import { useState } from 'react';
import { FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { projectCreateSchema, type Project } from '../../../src-shared/api/projects';
import { FormDialog } from '../manage/FormDialog';
import { fieldIssues } from '../manage/issues';
import { useServerWrite } from '../manage/serverData';

interface ProjectDialogProps {
  /** null creates a project. */
  project: Project | null;
  onClose(): void;
}

/** Creates or edits a project: its name (required, 'please enter the project name') and description. */
export function ProjectDialog({ project, onClose }: ProjectDialogProps) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [issues, setIssues] = useState<Record<string, string>>({});

  async function submit(): Promise<boolean> {
    const checked = projectCreateSchema.safeParse({ name, description });
    if (!checked.success) {
      setIssues(fieldIssues(checked.error, t));
      return false;
    }
    setIssues({});
    const fields = { name: checked.data.name, description: checked.data.description };
    if (project) await write('projectUpdate', { params: { id: project.id }, body: { ...fields, version: project.version } });
    else await write('projectCreate', { body: fields });
    return true;
  }

  return (
    <FormDialog title={project ? t('manage.projects.editTitle') : t('manage.projects.createTitle')} onClose={onClose} onSubmit={submit}>
      <FormGroup label={t('manage.projects.name')} labelFor="project-name" labelInfo="*" intent={issues.name ? 'danger' : 'none'} helperText={issues.name}>
        <InputGroup id="project-name" value={name} maxLength={100} intent={issues.name ? 'danger' : 'none'} onValueChange={setName} autoFocus />
      </FormGroup>
      <FormGroup label={t('manage.projects.description')} labelFor="project-description">
        <TextArea id="project-description" value={description} maxLength={2000} fill rows={4} onChange={(event) => setDescription(event.currentTarget.value)} />
      </FormGroup>
    </FormDialog>
  );
}
