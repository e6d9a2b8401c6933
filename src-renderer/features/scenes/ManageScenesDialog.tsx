import { useState } from 'react';
import { Alert, Button, ButtonGroup, Callout, Dialog, DialogBody, DialogFooter, Icon, Tag } from '@blueprintjs/core';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { useDeleteSceneMutation, useReorderScenesMutation, useSetDefaultSceneMutation } from './scenesApi';
import { sceneErrorText, sceneName } from './sceneText';

// The manage filter scenes dialog (spec 2): the user's scenes in their order, dragged (or moved
// with the keyboard) to reorder, each with its type and the edit, delete and set-default actions.
// Every change is queued in the core at once and shown from the replica.

interface ManageScenesDialogProps {
  scenes: readonly SceneView[];
  onEdit(scene: SceneView): void;
  onClose(): void;
}

function SceneRow({ scene, onEdit, onDelete, onSetDefault }: { scene: SceneView; onEdit(): void; onDelete(): void; onSetDefault(): void }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: scene.id, attributes: { roleDescription: t('scenes.manageDialog.drag.role') } });
  return (
    <li
      ref={setNodeRef}
      className={`manage-scenes__row${isDragging ? ' manage-scenes__row--dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid={`manage-scene-${scene.id}`}
    >
      <button type="button" ref={setActivatorNodeRef} className="manage-scenes__handle" aria-label={t('scenes.manageDialog.dragHandle')} {...attributes} {...listeners}>
        <Icon icon="drag-handle-vertical" />
      </button>
      {/* A system scene is named in the catalog; the user's own as written (data). */}
      <span className="manage-scenes__name" data-user-data={scene.isSystem ? undefined : true}>
        {sceneName(t, scene)}
      </span>
      <Tag minimal intent={scene.isSystem ? 'primary' : 'none'}>
        {scene.isSystem ? t('scenes.manageDialog.system') : t('scenes.manageDialog.custom')}
      </Tag>
      {scene.isDefault && <Tag intent="success">{t('scenes.manageDialog.isDefault')}</Tag>}
      <ButtonGroup variant="minimal" className="manage-scenes__actions">
        <Button icon="edit" text={t('scenes.manageDialog.edit')} onClick={onEdit} data-testid="manage-scene-edit" />
        {!scene.isDefault && <Button icon="star-empty" text={t('scenes.manageDialog.setDefault')} onClick={onSetDefault} data-testid="manage-scene-default" />}
        {!scene.isSystem && <Button icon="trash" intent="danger" text={t('scenes.manageDialog.delete')} onClick={onDelete} data-testid="manage-scene-delete" />}
      </ButtonGroup>
    </li>
  );
}

/**
 * What a screen reader hears while a scene is moved: the scene by its name and its place in the
 * list, in the user's language (dnd-kit's own words are English, with the scene's id).
 */
function dragAnnouncements(t: TFunction, scenes: readonly SceneView[]): Announcements {
  const place = (active: UniqueIdentifier, at: UniqueIdentifier | undefined) => {
    const scene = scenes.find((one) => one.id === active);
    return {
      name: scene ? sceneName(t, scene) : '',
      position: scenes.findIndex((one) => one.id === (at ?? active)) + 1,
      count: scenes.length,
    };
  };
  return {
    onDragStart: ({ active }) => t('scenes.manageDialog.drag.start', place(active.id, undefined)),
    onDragOver: ({ active, over }) => (over ? t('scenes.manageDialog.drag.over', place(active.id, over.id)) : t('scenes.manageDialog.drag.outside', place(active.id, undefined))),
    onDragEnd: ({ active, over }) => (over ? t('scenes.manageDialog.drag.end', place(active.id, over.id)) : t('scenes.manageDialog.drag.outside', place(active.id, undefined))),
    onDragCancel: ({ active }) => t('scenes.manageDialog.drag.cancel', place(active.id, undefined)),
  };
}

export function ManageScenesDialog({ scenes, onEdit, onClose }: ManageScenesDialogProps) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<SceneView | null>(null);
  const [reorder, reordered] = useReorderScenesMutation();
  const [remove, removed] = useDeleteSceneMutation();
  const [setDefault, defaulted] = useSetDefaultSceneMutation();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const failure = reordered.error ?? removed.error ?? defaulted.error;

  function dragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const ids = scenes.map((scene) => scene.id);
    void reorder({ ids: arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))) });
  }

  return (
    <Dialog isOpen title={t('scenes.manageDialog.title')} onClose={onClose} className="manage-scenes">
      <DialogBody>
        <div data-testid="manage-scenes">
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={dragEnd}
          accessibility={{ announcements: dragAnnouncements(t, scenes), screenReaderInstructions: { draggable: t('scenes.manageDialog.drag.instructions') } }}
        >
          <SortableContext items={scenes.map((scene) => scene.id)} strategy={verticalListSortingStrategy}>
            <ul className="manage-scenes__list">
              {scenes.map((scene) => (
                <SceneRow
                  key={scene.id}
                  scene={scene}
                  onEdit={() => onEdit(scene)}
                  onDelete={() => setDeleting(scene)}
                  onSetDefault={() => void setDefault({ id: scene.id })}
                />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
        {failure && (
          <Callout intent="danger" role="alert">
            {sceneErrorText(t, failure)}
          </Callout>
        )}
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text={t('scenes.manageDialog.close')} onClick={onClose} />} />
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('scenes.manageDialog.delete')}
        cancelButtonText={t('scenes.manageDialog.cancel')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) void remove({ id: deleting.id });
          setDeleting(null);
        }}
      >
        {deleting && t('scenes.manageDialog.confirmDelete', { name: sceneName(t, deleting) })}
      </Alert>
    </Dialog>
  );
}
