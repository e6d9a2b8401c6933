import type { UploadValue } from './field-config';
import { fail, formMessage, ok, type FormMessage, type FormMessageKey, type RuleResult } from './messages';

// Spec 4 "File upload", spec 5 and spec 8: the upload field's states, the checks a chosen file
// passes before it is sent, and what happens when sending fails.

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; fileName: string; progress?: number; cancellable: boolean }
  | { status: 'success'; file: UploadValue }
  | { status: 'error'; fileName: string; message: FormMessage };

export type UploadEvent =
  | { type: 'start'; fileName: string; cancellable: boolean }
  | { type: 'progress'; percent: number }
  | { type: 'succeeded'; file: UploadValue }
  /** The upload threw; `cancelled` when the user cancelled it. */
  | { type: 'failed'; cancelled: boolean }
  | { type: 'cancel' }
  | { type: 'delete' };

export interface UploadTransition {
  state: UploadState;
  /** Exceptions other than a user cancel are logged (spec 8). */
  log: boolean;
}

export const idleUpload: UploadState = { status: 'idle' };

const stay = (state: UploadState): UploadTransition => ({ state, log: false });
const go = (state: UploadState, log = false): UploadTransition => ({ state, log });

/**
 * One step of the upload state machine. One file at a time: a start while uploading is ignored;
 * events that do not apply to the current state leave it unchanged.
 */
export function uploadTransition(state: UploadState, event: UploadEvent): UploadTransition {
  switch (event.type) {
    case 'start':
      return state.status === 'uploading' ? stay(state) : go({ status: 'uploading', fileName: event.fileName, cancellable: event.cancellable });
    case 'progress':
      if (state.status !== 'uploading') return stay(state);
      return go({ ...state, progress: Math.min(100, Math.max(0, Math.trunc(event.percent))) });
    case 'succeeded':
      return state.status === 'uploading' ? go({ status: 'success', file: event.file }) : stay(state);
    case 'failed':
      if (state.status !== 'uploading') return stay(state);
      return event.cancelled ? go(idleUpload) : go({ status: 'error', fileName: state.fileName, message: formMessage('uploadFailed') }, true);
    case 'cancel':
      return state.status === 'uploading' && state.cancellable ? go(idleUpload) : stay(state);
    case 'delete':
      return state.status === 'success' || state.status === 'error' ? go(idleUpload) : stay(state);
  }
}

export type UploadAction = 'view' | 'edit' | 'delete' | 'cancel' | 'reupload';

/** The actions each state offers: success has view, edit (if allowed) and delete; error re-upload. */
export function uploadActions(state: UploadState, canEdit: boolean): UploadAction[] {
  switch (state.status) {
    case 'idle':
      return [];
    case 'uploading':
      return state.cancellable ? ['cancel'] : [];
    case 'success':
      return canEdit ? ['view', 'edit', 'delete'] : ['view', 'delete'];
    case 'error':
      return ['reupload', 'delete'];
  }
}

export const uploadActionLabels: Record<UploadAction, FormMessageKey> = {
  view: 'view',
  edit: 'edit',
  delete: 'delete',
  cancel: 'cancel',
  reupload: 'reupload',
};

export interface ChosenFile {
  name: string;
  size: number;
  /** The MIME type the browser reports ('' when unknown). */
  type: string;
}

export interface UploadRules {
  /** Accepted extensions ('.pdf'); empty or missing accepts every format. */
  accept?: readonly string[];
  /** Size limit in bytes; the spec leaves its value to the field. */
  maxSize?: number;
}

/** MIME types each extension may arrive with; a file whose reported type disagrees is mislabelled. */
export const extensionMimeTypes: Record<string, readonly string[]> = {
  '.pdf': ['application/pdf'],
  '.doc': ['application/msword'],
  '.docx': ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  '.xls': ['application/vnd.ms-excel'],
  '.xlsx': ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  '.png': ['image/png'],
  '.jpg': ['image/jpeg'],
  '.jpeg': ['image/jpeg'],
  '.gif': ['image/gif'],
  '.txt': ['text/plain'],
  '.zip': ['application/zip', 'application/x-zip-compressed'],
};

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** The checks before sending: accepted format, size limit, extension matching the content type. */
export function checkUploadFile(file: ChosenFile, rules: UploadRules): RuleResult<ChosenFile> {
  const extension = fileExtension(file.name);
  const accept = (rules.accept ?? []).map((a) => a.toLowerCase());
  if (accept.length > 0 && !accept.includes(extension)) return fail('formatNotSupported');
  if (rules.maxSize !== undefined && file.size > rules.maxSize) return fail('fileTooLarge');
  const expected = extensionMimeTypes[extension];
  if (file.type !== '' && expected && !expected.includes(file.type.toLowerCase())) return fail('wrongFileFormat');
  return ok(file);
}

/** Drag-upload takes one file at a time. */
export function checkDroppedFiles<F extends ChosenFile>(files: readonly F[], rules: UploadRules): RuleResult<F> {
  const [first] = files;
  if (files.length !== 1 || !first) return fail('oneFileAtATime');
  const checked = checkUploadFile(first, rules);
  return checked.ok ? ok(first) : checked;
}
