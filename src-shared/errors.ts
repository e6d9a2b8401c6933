import { z } from 'zod';
import { en } from './i18n/en';

// Errors cross every process boundary (IPC, WebSocket, REST) as plain values {code, message}.
// `message` carries the spec's text where the spec has one; the renderer translates by `code`.

export const errorCodes = [
  'validation_failed',
  'bad_request',
  'invalid_credentials',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'must_resync',
  'not_signed_in',
  'server_unreachable',
  /** A call only the server can answer, made while it cannot be reached (the form's online helpers). */
  'offline',
  /** A task of a contract whose alteration this device has queued and not sent yet: finished once it is sent. */
  'alteration_queued',
  'server_error',
  'replica_corrupt',
  'replica_newer_schema',
  'unknown_channel',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

export const appErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  issues: z.array(fieldIssueSchema).optional(),
});
export type AppError = z.infer<typeof appErrorSchema>;

/** English default message per code, from the English catalog (the spec's wording where it has one). */
export const defaultErrorMessages: Record<ErrorCode, string> = en.errors;

/** An error value that can also be thrown inside one process and caught at its edge. */
export class AppFailure extends Error {
  readonly error: AppError;
  constructor(code: ErrorCode, message: string = defaultErrorMessages[code], issues?: FieldIssue[]) {
    super(message);
    this.name = 'AppFailure';
    this.error = issues && issues.length > 0 ? { code, message, issues } : { code, message };
  }
}

/** zod issues → field issues naming the field, e.g. "pageSize: Invalid input". */
export function issuesFromZod(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}

/**
 * A validation failure whose message names the offending fields. The message is the wire's (the
 * spec's 'validation failed', then each field), not the UI's sentence: screens show their own text
 * for the code and the issues.
 */
export function invalidFields(issues: FieldIssue[]): AppFailure {
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AppFailure('validation_failed', `validation failed: ${summary}`, issues);
}

/** A validation failure from a zod schema's issues. */
export function validationFailure(error: z.ZodError): AppFailure {
  return invalidFields(issuesFromZod(error));
}

export function toAppError(cause: unknown): AppError {
  if (cause instanceof AppFailure) return cause.error;
  const parsed = appErrorSchema.safeParse(cause);
  if (parsed.success) return parsed.data;
  return { code: 'internal', message: defaultErrorMessages.internal };
}
