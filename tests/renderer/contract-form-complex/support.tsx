import { render } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { vi } from 'vitest';
import type { FormMode } from '../../../src-shared/domain/enums';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import { formFieldSchema, type FormField, type FormFieldInput } from '../../../src-shared/form/field-config';
import { initI18n } from '../../../src-renderer/i18n/i18n';
import {
  ComplexFieldsContext,
  type ComplexFieldsContextValue,
  type FieldValidator,
} from '../../../src-renderer/features/contract-form/fields/complex/services';
import type { FieldComponent, FieldProps, FormServices } from '../../../src-renderer/features/contract-form/types';

// Component-test support: English texts, fake FormServices and a one-field form that keeps the
// value and the registered validators as the engine would.

initI18n('en');

export type OnlineAnswers = Record<string, (request: Parameters<FormServices['onlineCall']>[1]) => unknown>;

export function fakeServices(overrides: Partial<FormServices> = {}, answers: OnlineAnswers = {}): FormServices {
  return {
    searchParties: vi.fn(() => Promise.resolve({ list: [], count: 0 })),
    onlineCall: vi.fn((endpoint: string, request: Parameters<FormServices['onlineCall']>[1]) => {
      const answer = answers[endpoint];
      if (!answer) return Promise.reject({ code: 'server_unreachable', message: 'offline' });
      try {
        return Promise.resolve(answer(request));
      } catch (error) {
        return Promise.reject(error);
      }
    }) as FormServices['onlineCall'],
    upload: vi.fn(() => Promise.resolve({ id: 'f1', name: 'a.pdf', file: '/files/f1' })),
    catalogue: { refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false },
    organizationShare: false,
    openRoute: vi.fn(),
    ...overrides,
  };
}

export function field(input: Partial<FormFieldInput> & Pick<FormFieldInput, 'type'>): FormField {
  return formFieldSchema.parse({ id: 'f', name: 'party', ...input });
}

export interface Rendered {
  services: FormServices;
  validators: Map<string, FieldValidator>;
  /** The value the field last reported. */
  value(): unknown;
  /** The registered validators' issues for the current value. */
  issues(): ReturnType<FieldValidator>;
}

interface Options {
  value?: unknown;
  mode?: FormMode;
  services?: FormServices;
  clauses?: readonly Clause[];
  templateApproval?: boolean;
  contractId?: string | null;
  error?: string | null;
  values?: Record<string, unknown>;
}

export function renderField(Component: FieldComponent, formField: FormField, options: Options = {}) {
  const services = options.services ?? fakeServices();
  const validators = new Map<string, FieldValidator>();
  let current: unknown = options.value;
  const context: ComplexFieldsContextValue = {
    services,
    clauses: options.clauses ?? [],
    templateApproval: options.templateApproval ?? false,
    contractId: options.contractId === undefined ? 'c1' : options.contractId,
    registerValidator(fieldId, validator) {
      validators.set(fieldId, validator);
      return () => validators.delete(fieldId);
    },
  };
  const Typed = Component as unknown as (props: FieldProps<unknown>) => ReactElement;
  function Harness() {
    const [value, setValue] = useState<unknown>(options.value);
    return (
      <Typed
        field={formField}
        value={value}
        mode={options.mode ?? 'edit'}
        error={options.error ?? null}
        values={{ ...options.values, [formField.id]: value }}
        onChange={(next) => {
          current = next;
          setValue(next);
        }}
      />
    );
  }
  const result = render(
    <ComplexFieldsContext.Provider value={context}>
      <Harness />
    </ComplexFieldsContext.Provider>,
  );
  const rendered: Rendered = {
    services,
    validators,
    value: () => current,
    issues: () => validators.get(formField.id)?.({ ...options.values, [formField.id]: current }) ?? [],
  };
  return { ...result, ...rendered };
}
