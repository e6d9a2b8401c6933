import { describe, expect, it } from 'vitest';
import type { Bridge, IpcResult } from '../../src-shared/ipc/channels';
import { maxUploadChunkBytes } from '../../src-shared/ipc/files';
import { uploadThroughCore } from '../../src-renderer/features/contracts/useBridgeFormServices';

// The renderer's side of an upload: slices read one at a time, sent in order, progress per chunk,
// and an abort that stops, tells the core and rejects with the signal's reason.

interface Call {
  channel: string;
  request: Record<string, unknown>;
}

/** A core that accepts everything; `hold` keeps a channel's answer pending until released. */
function fakeBridge(hold?: string) {
  const calls: Call[] = [];
  let release: () => void = () => undefined;
  const answers: Record<string, unknown> = {
    'files.uploadBegin': { uploadId: 'u1' },
    'files.uploadChunk': { received: 0 },
    'files.uploadFinish': { id: 'f1', name: 'a.txt', file: '/api/v1/files/f1' },
    'files.uploadCancel': {},
  };
  const bridge = {
    invoke: async (channel: string, request: Record<string, unknown>): Promise<IpcResult<unknown>> => {
      calls.push({ channel, request });
      if (channel === hold) await new Promise<void>((resolve) => (release = resolve));
      return { ok: true, data: answers[channel] };
    },
    on: () => () => undefined,
  } as unknown as Bridge;
  return { bridge, calls, release: () => release() };
}

describe('uploadThroughCore', () => {
  it('sends the file in ordered base64 chunks, reporting the share of bytes sent after each', async () => {
    const bytes = new Uint8Array(maxUploadChunkBytes * 2 + 10).map((_, i) => i % 251);
    const file = new File([bytes], 'a.txt', { type: 'text/plain' });
    const { bridge, calls } = fakeBridge();
    const progress: number[] = [];
    const stored = await uploadThroughCore(bridge, file, { onProgress: (f) => progress.push(f), signal: new AbortController().signal, contractId: 'c1' });

    expect(stored).toEqual({ id: 'f1', name: 'a.txt', file: '/api/v1/files/f1' });
    expect(calls.map((c) => c.channel)).toEqual(['files.uploadBegin', 'files.uploadChunk', 'files.uploadChunk', 'files.uploadChunk', 'files.uploadFinish']);
    expect(calls[0]!.request).toEqual({ name: 'a.txt', size: bytes.length, mimeType: 'text/plain', purpose: 'attachment', contractId: 'c1' });
    const chunks = calls.filter((c) => c.channel === 'files.uploadChunk');
    expect(chunks.map((c) => c.request.index)).toEqual([0, 1, 2]);
    const sent = Buffer.concat(chunks.map((c) => Buffer.from(c.request.data as string, 'base64')));
    expect(sent.equals(Buffer.from(bytes))).toBe(true);
    expect(progress).toEqual([maxUploadChunkBytes / bytes.length, (2 * maxUploadChunkBytes) / bytes.length, 1]);
  });

  it('on abort stops sending, cancels the upload in the core and rejects with the abort reason', async () => {
    const file = new File([new Uint8Array(maxUploadChunkBytes * 3)], 'b.txt', { type: 'text/plain' });
    const { bridge, calls, release } = fakeBridge('files.uploadChunk');
    const controller = new AbortController();
    const upload = uploadThroughCore(bridge, file, { onProgress: () => undefined, signal: controller.signal });
    await expect.poll(() => calls.length).toBe(2);
    expect(calls[0]!.request).not.toHaveProperty('contractId');
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls.map((c) => c.channel)).toEqual(['files.uploadBegin', 'files.uploadChunk', 'files.uploadCancel']);
    expect(calls[2]!.request).toEqual({ uploadId: 'u1' });
  });

  it("passes the core's refusal on and drops the upload", async () => {
    const file = new File(['hello'], 'c.txt', { type: 'text/plain' });
    const { bridge, calls } = fakeBridge();
    const refusing: Bridge = {
      ...bridge,
      invoke: (async (channel: string, request: Record<string, unknown>) =>
        channel === 'files.uploadChunk'
          ? { ok: false, error: { code: 'bad_request', message: 'chunk 0 goes past the file size' } }
          : bridge.invoke(channel as never, request as never)) as Bridge['invoke'],
    };
    await expect(uploadThroughCore(refusing, file, { onProgress: () => undefined, signal: new AbortController().signal })).rejects.toEqual({
      code: 'bad_request',
      message: 'chunk 0 goes past the file size',
    });
    expect(calls.map((c) => c.channel)).toEqual(['files.uploadBegin', 'files.uploadCancel']);
  });
});
