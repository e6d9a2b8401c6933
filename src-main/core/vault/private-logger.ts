import { toAppError } from '../../../src-shared/errors';
import type { Logger } from '../ports';

// No contract data in logs (issue 32): an error value's message and its reason's values may
// carry a contract's name, a counterparty or an amount (the server's words, a rule's refusal), so
// the log keeps only its code and its reason's key. A program fault (any other thrown error) keeps
// its stack, whose text is the program's, for support.

function privateDetail(detail: unknown): unknown {
  const isAppError =
    (detail instanceof Error && detail.name === 'AppFailure') ||
    (!(detail instanceof Error) && typeof detail === 'object' && detail !== null && 'code' in detail && 'message' in detail);
  if (!isAppError) return detail;
  const error = toAppError(detail);
  return error.reason ? { code: error.code, reason: error.reason.key } : { code: error.code };
}

/** The host's logger with every detail reduced to what carries no contract data. */
export function privateLogger(logger: Logger): Logger {
  return {
    info: (message, detail) => logger.info(message, privateDetail(detail)),
    warn: (message, detail) => logger.warn(message, privateDetail(detail)),
    error: (message, detail) => logger.error(message, privateDetail(detail)),
  };
}
