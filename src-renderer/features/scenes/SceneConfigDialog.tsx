import { useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { nameFieldId, sceneMessages, sceneNameMax, type LedgerField } from '../../../src-shared/domain/ledger';
import { toAppError } from '../../../src-shared/errors';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { sceneNameProblem } from '../../../src-shared/rules/scenes';
import { PerformanceTaskCascader } from '../cascader/PerformanceTaskCascader';
import { useCreateSceneMutation, useUpdateSceneMutation } from './scenesApi';
import { fieldLabel, sceneErrorText, sceneName } from './sceneText';

// The scene config dialog (spec 2): the scene's name, its performance task (a cascader), its filter fields and its list fields
// ('name' always listed). The name is checked by the shared rules as the user types; the core
// checks again before queuing and the server when it applies the edit.

interface SceneConfigDialogProps {
  /** Null: a new scene. */
  scene: SceneView | null;
  scenes: readonly SceneView[];
  fields: readonly LedgerField[];
  onClose(): void;
}

function FieldChoice({ legend, testId, fields, chosen, locked, onChange }: { legend: string; testId: string; fields: readonly LedgerField[]; chosen: readonly string[]; locked?: string; onChange(ids: string[]): void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="scene-config__fields" data-testid={testId}>
      <legend>{legend}</legend>
      {fields.map((field) => (
        <Checkbox
          key={field.id}
          inline
          label={fieldLabel(t, field)}
          disabled={field.id === locked}
          checked={field.id === locked || chosen.includes(field.id)}
          onChange={(event) => onChange(event.currentTarget.checked ? [...chosen, field.id] : chosen.filter((id) => id !== field.id))}
        />
      ))}
    </fieldset>
  );
}

export function SceneConfigDialog({ scene, scenes, fields, onClose }: SceneConfigDialogProps) {
  const { t } = useTranslation();
  // A system scene keeps its name (shown in the user's language); only its fields are configured.
  const system = scene?.isSystem ?? false;
  const [name, setName] = useState(scene ? sceneName(t, scene) : '');
  const [filterIDs, setFilterIDs] = useState<string[]>(scene?.filterIDs ?? fields.filter((f) => f.isDefaultFilter).map((f) => f.id));
  const [titleIDs, setTitleIDs] = useState<string[]>(scene?.titleIDs ?? fields.filter((f) => f.isDefaultTitle).map((f) => f.id));
  const [performanceId, setPerformanceId] = useState<string | null>(scene?.performanceId ?? null);
  const [touched, setTouched] = useState(false);
  const [createScene, created] = useCreateSceneMutation();
  const [updateScene, updated] = useUpdateSceneMutation();
  const problem = system ? null : sceneNameProblem(name, scenes.filter((s) => s.id !== scene?.id).map((s) => s.name));
  const failure = created.error ?? updated.error;
  // A duplicate name is a warning (spec 5); the other name problems are errors.
  const problemIntent = !touched || !problem ? 'none' : problem === sceneMessages.nameDuplicated ? 'warning' : 'danger';

  async function save() {
    setTouched(true);
    if (problem) return;
    const titles = [nameFieldId, ...titleIDs.filter((id) => id !== nameFieldId)];
    const result = scene
      ? await updateScene({ id: scene.id, patch: { ...(system ? {} : { name: name.trim() }), filterIDs, titleIDs: titles, performanceId } })
      : await createScene({ name: name.trim(), filterIDs, titleIDs: titles, performanceId });
    if ('data' in result) onClose();
  }

  return (
    <Dialog isOpen title={scene ? t('scenes.configDialog.editTitle') : t('scenes.configDialog.createTitle')} onClose={onClose} className="scene-config">
      <DialogBody>
        <div data-testid="scene-config">
        <FormGroup
          label={t('scenes.configDialog.name')}
          labelFor="scene-config-name"
          intent={problemIntent}
          helperText={touched && problem ? t(`scenes.messages.${problem}`, { defaultValue: problem }) : undefined}
        >
          <InputGroup
            id="scene-config-name"
            data-testid="scene-config-name"
            maxLength={sceneNameMax}
            placeholder={t('scenes.configDialog.namePlaceholder')}
            value={name}
            disabled={system}
            intent={problemIntent}
            onValueChange={(value) => {
              setName(value);
              setTouched(true);
            }}
          />
        </FormGroup>
        <FormGroup label={t('cascader.performanceTask')} labelFor="scene-config-performance">
          <PerformanceTaskCascader value={performanceId} onChange={setPerformanceId} />
        </FormGroup>
        <FieldChoice legend={t('scenes.configDialog.filterFields')} testId="scene-config-filters" fields={fields} chosen={filterIDs} onChange={setFilterIDs} />
        <FieldChoice legend={t('scenes.configDialog.listFields')} testId="scene-config-titles" fields={fields} chosen={titleIDs} locked={nameFieldId} onChange={setTitleIDs} />
        {failure && (
          <Callout intent={toAppError(failure).message === sceneMessages.nameDuplicated ? 'warning' : 'danger'} role="alert">
            {sceneErrorText(t, failure)}
          </Callout>
        )}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('scenes.configDialog.cancel')} onClick={onClose} />
            <Button intent="primary" data-testid="scene-config-save" text={t('scenes.configDialog.save')} loading={created.isLoading || updated.isLoading} onClick={() => void save()} />
          </>
        }
      />
    </Dialog>
  );
}
