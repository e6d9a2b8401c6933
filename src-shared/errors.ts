import { z } from 'zod';
import { en } from './i18n/en';
import type { reasonsEn } from './i18n/catalogs/reasons';

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
  /** The replica is encrypted with a key this device no longer has: it is set aside and synced afresh. */
  'replica_key_lost',
  /** An administrator revoked this device: it is refused on every call and wipes what it keeps. */
  'device_revoked',
  /** The replica has not reached the server for longer than its offline lock allows: the password opens it. */
  'offline_locked',
  'unknown_channel',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

const reasonValueSchema = z.union([z.string().max(2000), z.number()]);

/**
 * Why a step or an edit was refused, for the user (src-shared/i18n/catalogs/reasons.ts): a key of
 * the reasons catalog and its values. A key this app does not know (a newer server) is shown as
 * the error's message.
 */
export const reasonSchema = z.object({
  key: z.string().min(1).max(100),
  params: z.record(z.string().max(100), z.union([reasonValueSchema, z.array(reasonValueSchema).max(100)])).optional(),
});
export type Reason = z.infer<typeof reasonSchema>;

export const appErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  issues: z.array(fieldIssueSchema).optional(),
  reason: reasonSchema.optional(),
});
export type AppError = z.infer<typeof appErrorSchema>;

type ReasonTexts = (typeof reasonsEn)['text'];
export type ReasonKey = keyof ReasonTexts;
type Placeholders<S extends string> = S extends `${string}{{${infer P}}}${infer Rest}` ? P | Placeholders<Rest> : never;
type ReasonValue = string | number | readonly (string | number)[];
type ReasonArgs<K extends ReasonKey> = [Placeholders<ReasonTexts[K]>] extends [never] ? [] : [params: Record<Placeholders<ReasonTexts[K]>, ReasonValue>];

/** A reason of the catalog with every value its text names (a missing one is a type error). */
export function reason<K extends ReasonKey>(key: K, ...[params]: ReasonArgs<K>): Reason {
  return params === undefined ? { key } : { key, params: params as Reason['params'] };
}

/** English default message per code, from the English catalog (the spec's wording where it has one). */
export const defaultErrorMessages: Record<ErrorCode, string> = en.errors;

/** An error value that can also be thrown inside one process and caught at its edge. */
export class AppFailure extends Error {
  readonly error: AppError;
  constructor(code: ErrorCode, message: string = defaultErrorMessages[code], issues?: FieldIssue[], why?: Reason) {
    super(message);
    this.name = 'AppFailure';
    this.error = { code, message, ...(issues && issues.length > 0 && { issues }), ...(why && { reason: why }) };
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
