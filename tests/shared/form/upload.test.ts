import { describe, expect, it } from 'vitest';
import {
  checkDroppedFiles,
  checkUploadFile,
  idleUpload,
  uploadActions,
  uploadTransition,
  type UploadEvent,
  type UploadState,
} from '../../../src-shared/form/upload';

const file = { id: 'f1', name: 'a.pdf', file: 'files/a.pdf' };
const uploading: UploadState = { status: 'uploading', fileName: 'a.pdf', cancellable: true };
const success: UploadState = { status: 'success', file };
const error: UploadState = { status: 'error', fileName: 'a.pdf', message: { key: 'uploadFailed', text: 'Upload failed' } };

describe('upload state machine', () => {
  it.each<[string, UploadState, UploadEvent, UploadState, boolean]>([
    ['idle → uploading', idleUpload, { type: 'start', fileName: 'a.pdf', cancellable: true }, uploading, false],
    ['progress is recorded', uploading, { type: 'progress', percent: 42.7 }, { ...uploading, progress: 42 }, false],
    ['progress is bounded', uploading, { type: 'progress', percent: 140 }, { ...uploading, progress: 100 }, false],
    ['Uploading → success', uploading, { type: 'succeeded', file }, success, false],
    ['Uploading → error, logged', uploading, { type: 'failed', cancelled: false }, error, true],
    ['a cancel exception is not logged', uploading, { type: 'failed', cancelled: true }, idleUpload, false],
    ['cancel', uploading, { type: 'cancel' }, idleUpload, false],
    ['no cancel without a cancel option', { ...uploading, cancellable: false }, { type: 'cancel' }, { ...uploading, cancellable: false }, false],
    ['one file at a time', uploading, { type: 'start', fileName: 'b.pdf', cancellable: true }, uploading, false],
    ['re-upload from error', error, { type: 'start', fileName: 'a.pdf', cancellable: false }, { status: 'uploading', fileName: 'a.pdf', cancellable: false }, false],
    ['replace after success', success, { type: 'start', fileName: 'b.pdf', cancellable: true }, { ...uploading, fileName: 'b.pdf' }, false],
    ['delete after success', success, { type: 'delete' }, idleUpload, false],
    ['a late success after cancel is ignored', idleUpload, { type: 'succeeded', file }, idleUpload, false],
    ['progress while idle is ignored', idleUpload, { type: 'progress', percent: 5 }, idleUpload, false],
  ])('%s', (_, from, event, to, log) => {
    expect(uploadTransition(from, event)).toEqual({ state: to, log });
  });

  it.each<[UploadState, boolean, string[]]>([
    [idleUpload, true, []],
    [uploading, true, ['cancel']],
    [success, true, ['view', 'edit', 'delete']],
    [success, false, ['view', 'delete']],
    [error, true, ['reupload', 'delete']],
  ])('%j offers %j', (state, canEdit, actions) => {
    expect(uploadActions(state, canEdit)).toEqual(actions);
  });
});

describe('file checks', () => {
  const rules = { accept: ['.pdf', '.DOCX'], maxSize: 1000 };
  it.each([
    ['an accepted file', { name: 'a.pdf', size: 1000, type: 'application/pdf' }, null],
    ['upper-case extension', { name: 'A.PDF', size: 10, type: '' }, null],
    ['an unsupported format', { name: 'a.exe', size: 10, type: '' }, 'The current file format is not supported'],
    ['no extension', { name: 'README', size: 10, type: '' }, 'The current file format is not supported'],
    ['over the limit', { name: 'a.docx', size: 1001, type: '' }, 'The uploaded file exceeds the maximum size. Please upload it again.'],
    ['an extension that does not match the content', { name: 'a.pdf', size: 10, type: 'image/png' }, 'Wrong file format. Please upload it again.'],
  ])('%s', (_, chosen, message) => {
    const checked = checkUploadFile(chosen, rules);
    expect(checked.ok ? null : checked.message.text).toBe(message);
  });

  it('accepts any format without an accept list', () => {
    expect(checkUploadFile({ name: 'x.bin', size: 1e9, type: 'application/octet-stream' }, {}).ok).toBe(true);
  });

  it.each([
    [[], false],
    [[{ name: 'a.pdf', size: 1, type: '' }], true],
    [[{ name: 'a.pdf', size: 1, type: '' }, { name: 'b.pdf', size: 1, type: '' }], false],
  ])('drag-upload of %j accepted: %s', (files, accepted) => {
    const checked = checkDroppedFiles(files, rules);
    expect(checked.ok).toBe(accepted);
    if (!checked.ok) expect(checked.message.key).toBe('oneFileAtATime');
  });
});
