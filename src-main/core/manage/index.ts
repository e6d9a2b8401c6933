import type { z } from 'zod';
import { AppFailure } from '../../../src-shared/errors';
import type { manageReadRequestSchema, manageWriteRequestSchema } from '../../../src-shared/ipc/manage';
import { checkedRequest } from '../contract-server/checked-request';
import type { CoreFeature, FeatureHost } from '../feature';
import { authorizedCall } from '../session/authorized-call';

// Projects, numbering and intellectual property (issue 15): the screens' server reads and writes
// by endpoint name. Writes need the server: while sync knows it is away they are refused at once
// with 'offline' (never a wait for a timeout), and a write that finds it gone answers the same.

function offlineWhenUnreachable(cause: unknown): never {
  if (cause instanceof AppFailure && cause.error.code === 'server_unreachable') throw new AppFailure('offline');
  throw cause;
}

export function createManageFeature(host: FeatureHost): CoreFeature<'manage.read' | 'manage.write'> {
  async function read(request: z.output<typeof manageReadRequestSchema>) {
    const session = host.signedIn();
    const data = await authorizedCall(session, request.endpoint, checkedRequest(request)).catch(offlineWhenUnreachable);
    return { data, fetchedAt: host.clock.now().toISOString(), offline: false };
  }

  async function write(request: z.output<typeof manageWriteRequestSchema>) {
    const session = host.signedIn();
    const call = checkedRequest(request);
    if (!host.sync().status().online) throw new AppFailure('offline');
    return authorizedCall(session, request.endpoint, call).catch(offlineWhenUnreachable);
  }

  return { handlers: { 'manage.read': read, 'manage.write': write } };
}
