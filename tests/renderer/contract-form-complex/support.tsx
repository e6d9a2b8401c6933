import { render } from '@testing-library/react';
import { createRef, useState } from 'react';
import { vi } from 'vitest';
import type { FormMode } from '../../../src-shared/domain/enums';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import { formFieldSchema, type FormField, type FormFieldInput } from '../../../src-shared/form/field-config';
import { initI18n } from '../../../src-renderer/i18n/i18n';
import { ContractForm } from '../../../src-renderer/features/contract-form/ContractForm';
import { FormServicesProvider } from '../../../src-renderer/features/contract-form/FormServicesContext';
import { FormContractProvider } from '../../../src-renderer/features/contract-form/fields/complex/services';
import type { ContractFormHandle, FormServices } from '../../../src-renderer/features/contract-form/types';

const noClauses: readonly Clause[] = [];

// Component-test support: English texts, fake FormServices, and one field rendered by the engine
// (ContractForm) through the registry, so registration and validators are exercised as in a screen.

initI18n('en');

export type OnlineAnswers = Record<string, (request: Parameters<FormServices['onlineCall']>[1]) => unknown>;

export function fakeServices(overrides: Partial<FormServices> = {}, answers: OnlineAnswers = {}): FormServices {
  return {
    searchParties: vi.fn(() => Promise.resolve({ list: [], count: 0 })),
    relatedCandidates: vi.fn(() => Promise.resolve({ list: [], offline: false, asOf: null })),
    checkDuplicate: vi.fn(() => Promise.reject({ code: 'offline', message: 'offline' })),
    onlineCall: vi.fn((endpoint: string, request: Parameters<FormServices['onlineCall']>[1]) => {
      const answer = answers[endpoint];
      if (!answer) return Promise.reject({ code: 'server_unreachable', message: 'offline' });
      try {
        return Promise.resolve(answer(request));
      } catch (error) {
        return Promise.reject(error);
      }
    }) as FormServices['onlineCall'],
    // The same answers, kept: online they come "now"; an endpoint without an answer is a read never made, offline.
    cachedRead: vi.fn((endpoint: string, request: Parameters<FormServices['cachedRead']>[1]) => {
      const answer = answers[endpoint];
      if (!answer) return Promise.reject({ code: 'offline', message: 'offline' });
      try {
        return Promise.resolve({ value: answer(request), asOf: '2026-11-20T08:00:00.000Z', offline: false });
      } catch (error) {
        return Promise.reject(error);
      }
    }) as FormServices['cachedRead'],
    // The score dialog's core calls, answered by the scoreDetail and scoreSubmit answers: online and saved, unless a test says otherwise.
    scoreDetail: vi.fn((contractId: string) => {
      const answer = answers.scoreDetail;
      if (!answer) return Promise.reject({ code: 'offline', message: 'offline' });
      try {
        return Promise.resolve({ value: answer({ params: { id: contractId } }), asOf: '2026-11-20T08:00:00.000Z', offline: false, queued: false });
      } catch (error) {
        return Promise.reject(error);
      }
    }) as FormServices['scoreDetail'],
    saveScore: vi.fn(({ contractId, body }: Parameters<FormServices['saveScore']>[0]) => {
      const answer = answers.scoreSubmit;
      if (!answer) return Promise.reject({ code: 'offline', message: 'offline' });
      try {
        answer({ params: { id: contractId }, body });
        return Promise.resolve({ queued: false });
      } catch (error) {
        return Promise.reject(error);
      }
    }) as FormServices['saveScore'],
    upload: vi.fn(() => Promise.resolve({ id: 'f1', name: 'a.pdf', file: '/files/f1' })),
    catalogue: { refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false },
    organizationShare: false,
    openRoute: vi.fn(),
    directory: vi.fn(() => Promise.reject({ code: 'offline', message: 'offline' })),
    ...overrides,
  };
}

export function field(input: Partial<FormFieldInput> & Pick<FormFieldInput, 'type'>): FormField {
  return formFieldSchema.parse({ id: 'f', name: 'party', ...input });
}

interface Options {
  value?: unknown;
  mode?: FormMode;
  services?: FormServices;
  clauses?: readonly Clause[];
  templateApproval?: boolean;
  contractId?: string | null;
  /** Other fields of the form beside it (a party's detail fields). */
  alongside?: readonly FormField[];
}

/** One field inside the engine's ContractForm, as a screen hosts it. */
export function renderField(formField: FormField, options: Options = {}) {
  const services = options.services ?? fakeServices();
  const ref = createRef<ContractFormHandle>();
  // Kept stable: the engine builds its calculation graph once per fields array.
  const fields = [formField, ...(options.alongside ?? [])];
  let current: unknown = options.value;
  let all: Record<string, unknown> = {};
  function Harness() {
    const [values, setValues] = useState<Record<string, unknown>>(options.value === undefined ? {} : { [formField.id]: options.value });
    return (
      <ContractForm
        ref={ref}
        fields={fields}
        clauses={options.clauses ?? noClauses}
        templateApproval={options.templateApproval ?? false}
        mode={options.mode ?? 'edit'}
        values={values}
        onValuesChange={(next) => {
          current = next[formField.id];
          all = next;
          setValues(next);
        }}
      />
    );
  }
  const result = render(
    <FormServicesProvider services={services}>
      <FormContractProvider contractId={options.contractId === undefined ? 'c1' : options.contractId}>
        <Harness />
      </FormContractProvider>
    </FormServicesProvider>,
  );
  return {
    ...result,
    services,
    /** The value the field last reported. */
    value: () => current,
    /** Every value of the form as last reported. */
    values: () => all,
    /** Every issue the engine's validation finds now (field rules and registered validators). */
    issues: () => ref.current?.issues() ?? [],
    submit: () => ref.current!.submit(),
  };
}
