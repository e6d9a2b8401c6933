// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormServicesProvider } from '../../../src-renderer/features/contract-form/FormServicesContext';
import { UploadField } from '../../../src-renderer/features/contract-form/fields/complex/upload/UploadField';
import type { FormServices } from '../../../src-renderer/features/contract-form/types';
import type { UploadValue } from '../../../src-shared/form/field-config';
import type { QueuedFile } from '../../../src-shared/ipc/files';
import { fakeServices, field, renderField } from './support';

const uploadField = field({ id: 'u', name: 'attachment', type: 'upload' });
const pdf = (name = 'a.pdf', type = 'application/pdf', size = 10) => new File([new Uint8Array(size)], name, { type });
const picker = () => screen.getByLabelText('attachment') as HTMLInputElement;

/** An upload the test finishes by hand. */
function pendingUpload() {
  const calls: { resolve(v: { id: string; name: string; file: string }): void; reject(e: unknown): void; options: Parameters<FormServices['upload']>[1] }[] = [];
  const upload = vi.fn((_file: File, options: Parameters<FormServices['upload']>[1]) =>
    new Promise<{ id: string; name: string; file: string }>((resolve, reject) => {
      calls.push({ resolve, reject, options });
      options.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    }),
  );
  return { upload, calls };
}

/** The field alone, its value set from outside (as a screen loading a contract would). */
function Host({ value }: { value: UploadValue | null }) {
  return (
    <FormServicesProvider services={fakeServices()}>
      <UploadField field={uploadField} value={value} mode="edit" error={null} values={{}} onChange={vi.fn()} />
    </FormServicesProvider>
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('upload field', () => {
  it('goes idle → uploading with progress → success with view, edit and delete', async () => {
    const { upload, calls } = pendingUpload();
    const view = renderField(uploadField, { services: fakeServices({ upload }) });
    expect(screen.getByRole('button', { name: 'Choose a file or drop it here' })).toBeTruthy();
    await userEvent.upload(picker(), pdf());
    expect(screen.getByRole('status').textContent).toContain('Uploading a.pdf');
    act(() => calls[0]!.options.onProgress(0.42));
    expect(screen.getByLabelText('42%')).toBeTruthy();
    await act(async () => calls[0]!.resolve({ id: 'f1', name: 'a.pdf', file: '/files/f1' }));
    expect(view.value()).toEqual({ id: 'f1', name: 'a.pdf', file: '/files/f1' });
    expect(screen.getByText('a.pdf')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(view.services.openRoute).toHaveBeenCalledWith('/files/f1', { newWindow: true });
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(view.value()).toBeNull();
    expect(screen.getByRole('button', { name: 'Choose a file or drop it here' })).toBeTruthy();
  });

  it('shows a file kept on the device as waiting to upload, with its name, until the server has it; a refusal says why', async () => {
    const listeners: ((file: QueuedFile | null) => void)[] = [];
    const watchQueuedFile = vi.fn((_id: string, onChange: (file: QueuedFile | null) => void) => {
      listeners.push(onChange);
      return () => undefined;
    });
    const value = { id: '0192a000-0000-7000-8000-0000000000f1', name: 'signed scan.pdf', file: '/api/v1/files/0192a000-0000-7000-8000-0000000000f1' };
    const queued: QueuedFile = { id: value.id, name: value.name, size: 1000, sent: 0, purpose: 'attachment', contractId: null, state: 'waiting', error: null };
    const view = renderField(uploadField, { services: fakeServices({ watchQueuedFile }), value });
    expect(watchQueuedFile).toHaveBeenCalledWith(value.id, expect.any(Function));
    expect(screen.queryByTestId('upload-queued')).toBeNull();
    act(() => listeners.at(-1)!(queued));
    expect(screen.getByText('signed scan.pdf')).toBeTruthy();
    expect(screen.getByTestId('upload-queued').textContent).toBe('Waiting to upload');
    act(() => listeners.at(-1)!({ ...queued, sent: 420 }));
    expect(screen.getByTestId('upload-queued').textContent).toBe('Waiting to upload (42% sent)');
    // 'view' opens the file as its value names it: the core opens the kept copy.
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(view.services.openRoute).toHaveBeenCalledWith(value.file, { newWindow: true });
    act(() => listeners.at(-1)!({ ...queued, state: 'refused', error: { code: 'bad_request', message: 'x', reason: { key: 'fileContentMismatch' } } }));
    expect(screen.getByTestId('upload-queued').textContent).toBe('Upload refused: Wrong file format. Please upload it again.');
    act(() => listeners.at(-1)!(null));
    expect(screen.queryByTestId('upload-queued')).toBeNull();
    expect(screen.getByText('signed scan.pdf')).toBeTruthy();
  });

  it('binds the file to the saved contract being edited, and to none on a new draft', async () => {
    for (const contractId of ['c1', null]) {
      const { upload, calls } = pendingUpload();
      renderField(uploadField, { services: fakeServices({ upload }), contractId });
      await userEvent.upload(picker(), pdf());
      expect(calls[0]!.options.contractId).toBe(contractId ?? undefined);
      cleanup();
    }
  });

  it('cancels an upload back to idle without logging', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { upload } = pendingUpload();
    renderField(uploadField, { services: fakeServices({ upload }) });
    await userEvent.upload(picker(), pdf());
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Choose a file or drop it here' })).toBeTruthy();
    expect(log).not.toHaveBeenCalled();
  });

  it('shows upload failed with re-upload, logs the exception, and re-uploads', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { upload, calls } = pendingUpload();
    const view = renderField(uploadField, { services: fakeServices({ upload }) });
    await userEvent.upload(picker(), pdf());
    await act(async () => calls[0]!.reject(new Error('network down')));
    expect(screen.getByRole('alert').textContent).toBe('Upload failed');
    expect(log).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Upload again' }));
    expect(upload).toHaveBeenCalledTimes(2);
    await act(async () => calls[1]!.resolve({ id: 'f2', name: 'a.pdf', file: '/files/f2' }));
    expect(view.value()).toEqual({ id: 'f2', name: 'a.pdf', file: '/files/f2' });
  });

  it('refuses unsupported formats, oversized files and mislabelled files', async () => {
    const view = renderField(uploadField, {});
    fireEvent.change(picker(), { target: { files: [pdf('run.exe', '')] } });
    expect(screen.getByRole('alert').textContent).toBe('The current file format is not supported');
    fireEvent.change(picker(), { target: { files: [pdf('big.pdf', 'application/pdf', 20 * 1024 * 1024 + 1)] } });
    expect(screen.getByRole('alert').textContent).toBe('The uploaded file exceeds the maximum size. Please upload it again.');
    fireEvent.change(picker(), { target: { files: [pdf('fake.pdf', 'image/png')] } });
    expect(screen.getByRole('alert').textContent).toBe('Wrong file format. Please upload it again.');
    expect(view.services.upload).not.toHaveBeenCalled();
  });

  it('takes one dropped file at a time', async () => {
    const view = renderField(uploadField, {});
    const zone = screen.getByTestId('upload-u');
    fireEvent.drop(zone, { dataTransfer: { files: [pdf('a.pdf'), pdf('b.pdf')] } });
    expect(screen.getByRole('alert').textContent).toBe('Only one file can be uploaded at a time');
    fireEvent.drop(zone, { dataTransfer: { files: [pdf('a.pdf')] } });
    await act(async () => undefined);
    expect(view.services.upload).toHaveBeenCalledTimes(1);
  });

  it('shows a value set after it mounted', async () => {
    const { rerender } = render(<Host value={null} />);
    expect(screen.getByRole('button', { name: 'Choose a file or drop it here' })).toBeTruthy();
    rerender(<Host value={{ id: 'f9', name: 'late.pdf', file: '/files/f9' }} />);
    expect(screen.getByText('late.pdf')).toBeTruthy();
  });

  it('offers only view in preview and disabled modes', () => {
    const value = { id: 'f1', name: 'a.pdf', file: '/files/f1' };
    for (const mode of ['preview', 'disabled'] as const) {
      renderField(uploadField, { value, mode });
      expect(screen.getByText('a.pdf')).toBeTruthy();
      expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['View']);
      cleanup();
    }
  });
});
