import type { SerializedError } from '@reduxjs/toolkit';
import type { TFunction } from 'i18next';
import type { LedgerField } from '../../../src-shared/domain/ledger';
import { toAppError, type AppError } from '../../../src-shared/errors';
import type { SceneView } from '../../../src-shared/ipc/scenes';
import { errorText } from '../../i18n/errorText';

// How the scenes' own words are shown: system field and scene names from the catalog (a form
// field keeps its template's name), and the spec's scene messages translated.

export function fieldLabel(t: TFunction, field: Pick<LedgerField, 'id' | 'name'>): string {
  return t(`scenes.fields.${field.id}`, { defaultValue: field.name });
}

export function sceneName(t: TFunction, scene: Pick<SceneView, 'name' | 'isSystem'>): string {
  return scene.isSystem ? t(`scenes.sceneNames.${scene.name}`, { defaultValue: scene.name }) : scene.name;
}

/** A refused scene edit: the spec's message in the user's language when it is one of the scene rules. */
export function sceneErrorText(t: TFunction, error: AppError | SerializedError): string {
  const { message } = toAppError(error);
  return t(`scenes.messages.${message}`, { defaultValue: errorText(t, error) });
}
