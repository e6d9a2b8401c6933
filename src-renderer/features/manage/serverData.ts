import { useCallback } from 'react';
import type { EndpointBody, EndpointName } from '../../../src-shared/api/endpoints';
import type { CachedReadName } from '../../../src-shared/ipc/cached-reads';
import type { OnlineCallName } from '../../../src-shared/ipc/drafting';
import { useCachedRead, useOnlineWrite } from '../cached-reads/useCachedRead';

// The management screens' server reads (kept for offline reading) and writes (online only)
// through the core's cached reads, with the endpoint's own types for the body and the answer.

type QueryValue = string | number | boolean | undefined;

export interface CallParts {
  params?: Record<string, string>;
  /** Undefined and empty values are left out (an empty search is no search). */
  query?: Record<string, QueryValue>;
}

function definedQuery(query: Record<string, QueryValue> = {}): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== ''));
}

/** A server read: the server's answer, or the kept one "as of" its time while the server is away. */
export function useServerRead<N extends CachedReadName>(endpoint: N, parts: CallParts = {}, options: { skip?: boolean } = {}) {
  return useCachedRead({ endpoint, params: parts.params ?? {}, query: definedQuery(parts.query) }, options);
}

/** A server write: the endpoint's answer, or the refusal ('offline' at once while the server is away). */
export function useServerWrite() {
  const write = useOnlineWrite();
  return useCallback(
    <N extends OnlineCallName & EndpointName>(endpoint: N, parts: CallParts & { body?: EndpointBody<N> } = {}) =>
      write(endpoint, { params: parts.params, query: definedQuery(parts.query), body: parts.body }),
    [write],
  );
}
