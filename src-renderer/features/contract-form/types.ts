import type { ComponentType } from 'react';
import type { FormMode } from '../../../src-shared/domain/enums';
import type { FormField } from '../../../src-shared/form/field-config';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormIssue } from '../../../src-shared/form/messages';
import type { ValidateErrorEvent } from '../../../src-shared/form/validation';
import type { ChannelRequest, ChannelResponse } from '../../../src-shared/ipc/channels';
import type { EndpointName } from '../../../src-shared/api/endpoints';
import type { OnlineCallName } from '../../../src-shared/ipc/drafting';
import type { CachedAnswer, CachedReadName } from '../../../src-shared/ipc/cached-reads';

// The generic form's React contract (issue 6). The engine (`ContractForm`) renders each field
// through the component its type maps to; fields get data through `FormServices`, so the same
// components run against the core (screens) or fakes (component tests).

/** What every field component receives. */
export interface FieldProps<V = unknown> {
  field: FormField;
  value: V | undefined;
  /** The mode this field renders in (the form's mode narrowed by editability). */
  mode: FormMode;
  /** The field's first validation message, already translated; null when valid. */
  error: string | null;
  onChange(value: V | undefined): void;
  onBlur?(): void;
  /** All values of the form (read-only), for fields that depend on others (calculation, numbering). */
  values: Readonly<Record<string, unknown>>;
}

export type FieldComponent = ComponentType<FieldProps<never>>;

export interface UploadOptions {
  onProgress(fraction: number): void;
  signal: AbortSignal;
  /** The saved contract the file belongs to: whoever may see the contract may then download it. */
  contractId?: string;
}

/** Data the fields need beyond their own value; the screens pass the core-backed implementation. */
export interface FormServices {
  /** Party picker search (works offline over the kept counterparties). */
  searchParties(request: ChannelRequest<'drafting.searchParties'>): Promise<ChannelResponse<'drafting.searchParties'>>;
  /** A server read while online; rejects with an AppError ({code, message}) offline. */
  onlineCall<N extends OnlineCallName & EndpointName>(
    endpoint: N,
    request: { params?: Record<string, string>; query?: Record<string, string | number | boolean>; body?: unknown },
  ): Promise<unknown>;
  /** A server read kept for offline reading (the law firms and lawyers of the agent field): the server's answer, or the kept one as of its time. */
  cachedRead(endpoint: CachedReadName, request: { params?: Record<string, string>; query?: Record<string, string | number | boolean> }): Promise<CachedAnswer<unknown>>;
  /** Uploads a file; progress in 0..1; the signal cancels. Resolves to the stored file. */
  upload(file: File, options: UploadOptions): Promise<{ id: string; name: string; file: string }>;
  /** The catalogue kept for offline drafting (contract types, numbering preview, number-editor flag). */
  catalogue: ChannelResponse<'drafting.catalogue'>;
  /** An organisation-share environment hides the party detail link (spec 2). */
  organizationShare: boolean;
  /** Opens a route (a new tab or window where the spec says so). */
  openRoute(path: string, options?: { newWindow?: boolean }): void;
  /** The users and departments of the people and department fields: the server's, or the kept ones offline. */
  directory(): Promise<ChannelResponse<'directory.get'>>;
}

export interface ContractFormProps {
  fields: readonly FormField[];
  clauses?: readonly Clause[];
  values: Readonly<Record<string, unknown>>;
  onValuesChange(values: Record<string, unknown>): void;
  mode: FormMode;
  /** Contract alteration: only fields with alterEditStatus 2 open (spec 4). */
  alteration?: boolean;
  submitOnEnter?: boolean;
  /** Field keys set aside by validation. */
  ignoredKeys?: readonly string[];
  /** Called with the values once validation passes. */
  onSubmit?(values: Record<string, unknown>): void;
  /** The validate error event (type 'validate') when submitting fails. */
  onValidateError?(event: ValidateErrorEvent): void;
  /** A template-approval page skips inserting statement text at bookmarks. */
  templateApproval?: boolean;
}

/** Imperative handle of the form: screens submit it from their own buttons. */
export interface ContractFormHandle {
  /** Validates; resolves the values or rejects with FormValidationError ('validation failed'). */
  submit(): Promise<Record<string, unknown>>;
  issues(): FormIssue[];
}
