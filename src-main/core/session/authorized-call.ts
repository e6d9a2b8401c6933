import type { EndpointName, EndpointResponse } from '../../../src-shared/api/endpoints';
import { AppFailure } from '../../../src-shared/errors';
import type { ContractServerRequest } from '../contract-server/client';
import type { ActiveSession } from './session-service';

/** A server call with the session's token; an expired token is rotated once and the call sent again. */
export async function authorizedCall<N extends EndpointName>(
  session: ActiveSession,
  name: N,
  request: ContractServerRequest<N> = {},
): Promise<EndpointResponse<N>> {
  try {
    return await session.client.call(name, { ...request, token: session.token() });
  } catch (cause) {
    if (!(cause instanceof AppFailure) || cause.error.code !== 'unauthorized') throw cause;
    await session.refreshTokens();
    return session.client.call(name, { ...request, token: session.token() });
  }
}
