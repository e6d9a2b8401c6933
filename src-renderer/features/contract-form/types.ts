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
import type { QueuedFile } from '../../../src-shared/ipc/files';

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
  /** Party picker search (counterpart/list while online; offline over the kept counterparties). */
  searchParties(request: ChannelRequest<'drafting.searchParties'>): Promise<ChannelResponse<'drafting.searchParties'>>;
  /** A related-contracts field's candidates by name or number (the server's, or this device's offline). */
  relatedCandidates(q: string): Promise<ChannelResponse<'drafting.relatedCandidates'>>;
  /** The contract-number duplicate check: the server's answer, or this device's numbers as of its last sync. */
  checkDuplicate(query: ChannelRequest<'drafting.checkDuplicate'>): Promise<ChannelResponse<'drafting.checkDuplicate'>>;
  /** A server read while online; rejects with an AppError ({code, message}) offline. */
  onlineCall<N extends OnlineCallName & EndpointName>(
    endpoint: N,
    request: { params?: Record<string, string>; query?: Record<string, string | number | boolean>; body?: unknown },
  ): Promise<unknown>;
  /** A server read kept for offline reading (the law firms and lawyers of the agent field): the server's answer, or the kept one as of its time. */
  cachedRead(endpoint: CachedReadName, request: { params?: Record<string, string>; query?: Record<string, string | number | boolean> }): Promise<CachedAnswer<unknown>>;
  /** A contract's score detail: the server's, or the kept one as of its time offline, with the user's queued scores on it. */
  scoreDetail(contractId: string): Promise<ChannelResponse<'scoring.detail'>>;
  /** Saves a contract's score on the server, or queues it to sync while the server cannot take it. */
  saveScore(request: ChannelRequest<'scoring.save'>): Promise<ChannelResponse<'scoring.save'>>;
  /** Uploads a file; progress in 0..1; the signal cancels. Resolves to the stored file. */
  upload(file: File, options: UploadOptions): Promise<{ id: string; name: string; file: string }>;
  /**
   * Follows a file kept on the device until the server has it (issue 30): `onChange` gets it while
   * it waits (or was refused), null once it is not queued; returns the unsubscribe. Hosts that
   * queue no files give none.
   */
  watchQueuedFile?(id: string, onChange: (file: QueuedFile | null) => void): () => void;
  /** The catalogue kept for offline drafting (contract types, numbering preview, number-editor flag). */
  catalogue: ChannelResponse<'drafting.catalogue'>;
  /** An organisation-share environment hides the party detail link (spec 2). */
  organizationShare: boolean;
  /** The signed-in user's organisation: a party's detail fields are grouped under the party key built from it (spec 6). */
  organisationId?: string;
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
  /**
   * Why the server refused fields of a re-opened edit (message already translated), each shown on
   * its field while the field still holds the value that was refused.
   */
  refused?: Readonly<Record<string, RefusedValue>>;
}

export interface RefusedValue {
  message: string;
  value: unknown;
}

/** Imperative handle of the form: screens submit it from their own buttons. */
export interface ContractFormHandle {
  /** Validates; resolves the values or rejects with FormValidationError ('validation failed'). */
  submit(): Promise<Record<string, unknown>>;
  issues(): FormIssue[];
}
