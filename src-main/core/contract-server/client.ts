import type { z } from 'zod';
import { errorEnvelopeSchema, okCode } from '../../../src-shared/api/envelope';
import {
  fileDownloadPath,
  fileUploadPath,
  uploadChunkContentType,
  uploadedFileSchema,
  uploadOffsetHeader,
  uploadSessionPath,
  uploadSessionSchema,
  uploadSessionsPath,
  type FilePurpose,
  type UploadedFile,
  type UploadSession,
  type UploadSessionBegin,
} from '../../../src-shared/api/files';
import { endpoints, type EndpointBody, type EndpointName, type EndpointQuery, type EndpointResponse } from '../../../src-shared/api/endpoints';
import { syncFeedStreamPath, syncImageBodyUrl, type SyncFeedStreamQuery } from '../../../src-shared/api/sync';
import { AppFailure } from '../../../src-shared/errors';
import { packedPullResponseSchema, type PackedPullResponse } from '../../../src-shared/sync/feed-codec';
import { exactParser } from '../../../src-shared/sync/exact-check';
import { bodyCoding, type BodyCoding } from './compression';

// Talks to the contract server through the endpoint map of src-shared. Every answer is checked
// against the endpoint's response schema: a server of another version cannot hand the core a
// shape it does not understand.

export interface ContractServerRequest<N extends EndpointName> {
  /** The path's `:name` parts. */
  params?: z.input<(typeof endpoints)[N]['params']>;
  query?: EndpointQuery<N>;
  body?: EndpointBody<N>;
  /** Read at send time and never stored with the request. */
  token?: string;
  /** How long to wait for the answer, when not the client's usual time (a quick health probe). */
  timeoutMs?: number;
}

export interface ContractServerClient {
  readonly baseUrl: string;
  call<N extends EndpointName>(name: N, request?: ContractServerRequest<N>): Promise<EndpointResponse<N>>;
  /** Sends a file on disk to the multipart upload route (docs/api/files.md), streamed from the disk. */
  uploadFile(request: FileUploadRequest): Promise<UploadedFile>;
  /** Begins a resumable upload, or finds the one of this id where it stands (docs/api/files.md). */
  beginUpload(begin: UploadSessionBegin, token: string): Promise<UploadSession>;
  /** Where a resumable upload stands. */
  uploadStanding(id: string, token: string): Promise<UploadSession>;
  /** Sends a chunk at the acknowledged `offset`; the answer acknowledges it. */
  sendUploadChunk(id: string, offset: number, bytes: Uint8Array<ArrayBuffer>, token: string, signal?: AbortSignal): Promise<UploadSession>;
  /** Abandons a resumable upload: the server removes what it received. */
  abandonUpload(id: string, token: string): Promise<UploadSession>;
  /** A stored file's bytes (an ok response whose body is the file). */
  downloadFile(id: string, token: string): Promise<Response>;
  /** The sync feed as a stream of packed pages (syncFeedStreamPath); a refusal of its first page fails here. */
  openFeedStream(query: SyncFeedStreamQuery, token: string): Promise<FeedStream>;
  /** A replica image's compressed bytes from byte `from` on (206), or whole (200) where the server answers so. */
  downloadImage(sha256: string, token: string, from: number, signal: AbortSignal): Promise<Response>;
}

/** Pages of the feed as they arrive. */
export interface FeedStream {
  /** The next page, or null once the stream has ended (whether or not the feed has). */
  next(): Promise<PackedPullResponse | null>;
  /** Stops reading and drops the connection. */
  cancel(): void;
  /** After the feed's last page: reads the stream's last bytes, so its connection is free for other calls. */
  finish(): void;
}

export interface FileUploadRequest {
  file: Blob;
  name: string;
  mimeType: string;
  contractId?: string;
  purpose: FilePurpose;
  token: string;
  /** Stops the transfer (a cancelled upload). */
  signal?: AbortSignal;
}

export interface ContractServerClientOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The path with each `:name` filled from `params` (encoded: an id never changes the path). */
function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new AppFailure('bad_request', `the path ${path} needs ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readPayload(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new AppFailure(response.status >= 500 ? 'server_error' : 'server_unreachable', `The contract server answered ${response.status} without a readable body.`);
  }
}

/** The server's refusal in its own words (the error envelope), or a plain server error. */
function refusal(payload: unknown, status: number): AppFailure {
  const failure = errorEnvelopeSchema.safeParse(payload);
  if (failure.success) return new AppFailure(failure.data.code, failure.data.message, failure.data.issues, failure.data.reason);
  return new AppFailure('server_error', `The contract server answered ${status}.`);
}

/** Reads the server's answer: the data checked against `schema`, or its refusal as an AppFailure. */
async function answer<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  const payload = await readPayload(response);
  if (response.ok && (payload as { code?: unknown })?.code === okCode) {
    const data = schema.safeParse((payload as { data: unknown }).data);
    if (!data.success) throw new AppFailure('server_error', 'The contract server sent an answer this app does not understand.');
    return data.data;
  }
  throw refusal(payload, response.status);
}

/** Files may be large: their transfers get minutes, not the seconds of a JSON call. */
const fileTimeoutMs = 10 * 60_000;

/** Sends a JSON body compressed when the server takes it (a refused coding is sent once more, plain). */
async function sendJson(send: typeof fetch, coding: BodyCoding, url: string, init: RequestInit & { headers: Record<string, string> }, json: string | undefined) {
  const encoded = json === undefined ? null : await coding.encode(json);
  const headers = { ...init.headers, 'accept-encoding': coding.acceptEncoding, ...(encoded?.coding && { 'content-encoding': encoded.coding }) };
  let response: Response;
  try {
    response = await send(url, { ...init, headers, body: encoded?.body });
  } catch {
    throw new AppFailure('server_unreachable');
  }
  coding.heard(response);
  if (response.status === 415 && encoded?.coding) {
    coding.refused(encoded.coding);
    return sendJson(send, coding, url, init, json);
  }
  return response;
}

/** A page of the stream, checked without a copy of its columns. */
const parsePackedPage = exactParser(packedPullResponseSchema);

/**
 * Reads a stream of one JSON page a line. Each wait for the stream's next bytes gets `timeoutMs`:
 * a poor link brings some every second, and a stalled stream is dropped rather than waited on.
 */
async function feedStream(send: typeof fetch, coding: BodyCoding, url: string, token: string, timeoutMs: number): Promise<FeedStream> {
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waitAtMost = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop.abort(), timeoutMs);
  };
  waitAtMost();
  let response: Response;
  try {
    response = await send(url, { headers: { accept: 'application/x-ndjson', authorization: `Bearer ${token}`, 'accept-encoding': coding.acceptEncoding }, signal: stop.signal });
  } catch {
    clearTimeout(timer);
    throw new AppFailure('server_unreachable');
  }
  if (!response.ok || !response.body) {
    clearTimeout(timer);
    throw refusal(await readPayload(response), response.status);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let partial = '';
  let ended = false;
  const cancel = () => {
    clearTimeout(timer);
    ended = true;
    // Cancelling the body lets go of its connection (an aborted fetch whose body was left unread keeps it).
    reader.cancel().catch(() => undefined);
    stop.abort();
  };
  return {
    cancel,
    finish() {
      void (async () => {
        while (!ended) {
          waitAtMost();
          const { done } = await reader.read();
          if (done) break;
        }
      })()
        .catch(() => undefined)
        .finally(cancel);
    },
    async next() {
      while (lines.length === 0 && !ended) {
        waitAtMost();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          cancel();
          throw new AppFailure('server_unreachable');
        }
        if (chunk.done) {
          // A line without its newline is a page cut short: the stream ended before it.
          cancel();
          break;
        }
        const text = decoder.decode(chunk.value, { stream: true });
        let start = 0;
        for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
          lines.push(partial + text.slice(start, end));
          partial = '';
          start = end + 1;
        }
        partial += text.slice(start);
      }
      clearTimeout(timer);
      const line = lines.shift();
      if (line === undefined) return null;
      let page: unknown;
      try {
        page = JSON.parse(line);
      } catch {
        page = undefined;
      }
      const parsed = parsePackedPage(page);
      if (!parsed.success) {
        cancel();
        throw new AppFailure('server_error', 'The contract server sent an answer this app does not understand.');
      }
      return parsed.data;
    },
  };
}

export function createContractServerClient(baseUrl: string, options: ContractServerClientOptions = {}): ContractServerClient {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const coding = bodyCoding();
  return {
    baseUrl,
    async call(name, request = {}) {
      const endpoint = endpoints[name];
      const headers: Record<string, string> = { accept: 'application/json' };
      if (request.token) headers.authorization = `Bearer ${request.token}`;
      const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
      if (hasBody) headers['content-type'] = 'application/json';
      const path = fillPath(endpoint.path, request.params as Record<string, unknown> | undefined);
      const url = `${baseUrl}${path}${queryString(request.query as Record<string, unknown>)}`;
      const init = { method: endpoint.method, headers, signal: AbortSignal.timeout(request.timeoutMs ?? timeoutMs) };
      const response = await sendJson(send, coding, url, init, hasBody ? JSON.stringify(request.body ?? {}) : undefined);
      return answer(response, endpoint.response as z.ZodType) as Promise<EndpointResponse<typeof name>>;
    },
    async uploadFile(request) {
      const form = new FormData();
      form.append('file', new Blob([request.file], { type: request.mimeType }), request.name);
      let response: Response;
      try {
        response = await send(`${baseUrl}${fileUploadPath}${queryString({ contractId: request.contractId, purpose: request.purpose })}`, {
          method: 'POST',
          headers: { accept: 'application/json', authorization: `Bearer ${request.token}` },
          body: form,
          signal: request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(fileTimeoutMs)]) : AbortSignal.timeout(fileTimeoutMs),
        });
      } catch {
        throw new AppFailure('server_unreachable');
      }
      return answer(response, uploadedFileSchema);
    },
    async beginUpload(begin, token) {
      const init = { method: 'POST', headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'content-type': 'application/json' }, signal: AbortSignal.timeout(timeoutMs) };
      return answer(await sendJson(send, coding, `${baseUrl}${uploadSessionsPath}`, init, JSON.stringify(begin)), uploadSessionSchema);
    },
    async uploadStanding(id, token) {
      const init = { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) };
      return answer(await sendJson(send, coding, `${baseUrl}${uploadSessionPath(id)}`, init, undefined), uploadSessionSchema);
    },
    async sendUploadChunk(id, offset, bytes, token, signal) {
      let response: Response;
      try {
        response = await send(`${baseUrl}${uploadSessionPath(id)}`, {
          method: 'PATCH',
          headers: { accept: 'application/json', authorization: `Bearer ${token}`, 'content-type': uploadChunkContentType, [uploadOffsetHeader]: String(offset) },
          body: bytes,
          signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(fileTimeoutMs)]) : AbortSignal.timeout(fileTimeoutMs),
        });
      } catch {
        throw new AppFailure('server_unreachable');
      }
      return answer(response, uploadSessionSchema);
    },
    async abandonUpload(id, token) {
      const init = { method: 'DELETE', headers: { accept: 'application/json', authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) };
      return answer(await sendJson(send, coding, `${baseUrl}${uploadSessionPath(id)}`, init, undefined), uploadSessionSchema);
    },
    openFeedStream: (query, token) => feedStream(send, coding, `${baseUrl}${syncFeedStreamPath}${queryString(query)}`, token, timeoutMs),
    async downloadImage(sha256, token, from, signal) {
      let response: Response;
      try {
        response = await send(`${baseUrl}${syncImageBodyUrl(sha256)}`, { headers: { authorization: `Bearer ${token}`, ...(from > 0 && { range: `bytes=${from}-` }) }, signal });
      } catch {
        throw new AppFailure('server_unreachable');
      }
      if (!response.ok || !response.body) throw refusal(await readPayload(response), response.status);
      return response;
    },
    async downloadFile(id, token) {
      let response: Response;
      try {
        response = await send(`${baseUrl}${fileDownloadPath(id)}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(fileTimeoutMs),
        });
      } catch {
        throw new AppFailure('server_unreachable');
      }
      if (!response.ok) throw refusal(await readPayload(response), response.status);
      return response;
    },
  };
}
