import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorEnvelope } from '../../src-shared/api/envelope';
import { AppFailure, defaultErrorMessages, type AppError, type ErrorCode, type Reason } from '../../src-shared/errors';
import { isUniqueViolation } from './feature-helpers';

// Every failure leaves the server as the error envelope { code, message, data: null, issues? }.
// Bad input is always a 4xx; anything unexpected is a 500 whose detail stays in the log.

const statusByCode: Partial<Record<ErrorCode, number>> = {
  validation_failed: 400,
  bad_request: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  forbidden: 403,
  /** A revoked device (issue 32): not a lapsed sign-in the client could renew. */
  device_revoked: 403,
  not_found: 404,
  conflict: 409,
  /** The cursor is older than the kept tombstones: the client downloads everything again. */
  must_resync: 410,
  rate_limited: 429,
};

/** A refused sign-in that also tells the client when to try again (Retry-After). */
export class RateLimited extends AppFailure {
  constructor(readonly retryAfterSeconds: number, message?: string) {
    super('rate_limited', message);
  }
}

/**
 * A write made against a stale version (If-Match): 409 conflict whose `data` carries the current
 * row, so the client can merge without another read.
 */
export class StaleVersion extends AppFailure {
  constructor(message: string, readonly current: unknown, why?: Reason) {
    super('conflict', message, undefined, why);
  }
}

function envelope(error: AppError, data: unknown = null): ErrorEnvelope {
  return { ...error, data };
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppFailure) {
      if (error instanceof RateLimited) void reply.header('retry-after', String(error.retryAfterSeconds));
      const data = error instanceof StaleVersion ? error.current : null;
      return reply.status(statusByCode[error.error.code] ?? 500).send(envelope(error.error, data));
    }
    // Checks that passed before a concurrent write committed (a duplicate number, a client id)
    // end in a unique index: that is a conflict with the other write, never a server error.
    if (isUniqueViolation(error)) {
      return reply.status(409).send(envelope({ code: 'conflict', message: 'a concurrent write got there first (a number or id it needs is now taken): reload and try again' }));
    }
    // Fastify's own client errors: malformed JSON, an unsupported media type, an oversized body.
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(envelope({ code: 'bad_request', message: `${defaultErrorMessages.bad_request} ${error.message}` }));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(envelope({ code: 'server_error', message: defaultErrorMessages.server_error }));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(envelope({ code: 'not_found', message: `${request.method} ${request.url}: ${defaultErrorMessages.not_found}` })),
  );
}
