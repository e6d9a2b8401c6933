import { render } from '@testing-library/react';
import { createRef, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import type { FormMode } from '../../../src-shared/domain/enums';
import { formFieldSchema, type FormField, type FormFieldInput } from '../../../src-shared/form/field-config';
import type { DraftingCatalogue } from '../../../src-shared/ipc/drafting';
import { ContractForm } from '../../../src-renderer/features/contract-form/ContractForm';
import { FormServicesProvider } from '../../../src-renderer/features/contract-form/FormServicesContext';
import type { ContractFormHandle, ContractFormProps, FormServices } from '../../../src-renderer/features/contract-form/types';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';

initI18n('en');

/** A field config as the server would send it, parsed like the screens parse it. */
export function field(input: Partial<FormFieldInput> & Pick<FormFieldInput, 'id' | 'type'>): FormField {
  return formFieldSchema.parse({ name: `Field ${input.id}`, ...input });
}

export const emptyCatalogue: DraftingCatalogue = { refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false };

export function fakeServices(overrides: Partial<FormServices> = {}): FormServices {
  return {
    searchParties: vi.fn(() => Promise.reject(new Error('not used'))),
    relatedCandidates: vi.fn(() => Promise.reject(new Error('not used'))),
    checkDuplicate: vi.fn(() => Promise.reject(new Error('not used'))),
    onlineCall: vi.fn(() => Promise.reject(new Error('not used'))),
    cachedRead: vi.fn(() => Promise.reject(new Error('not used'))),
    scoreDetail: vi.fn(() => Promise.reject(new Error('not used'))),
    saveScore: vi.fn(() => Promise.reject(new Error('not used'))),
    upload: vi.fn(() => Promise.reject(new Error('not used'))),
    catalogue: emptyCatalogue,
    organizationShare: false,
    openRoute: vi.fn(),
    directory: vi.fn(() => Promise.reject(new Error('not used'))),
    ...overrides,
  };
}

type HarnessProps = Omit<ContractFormProps, 'values' | 'onValuesChange' | 'mode'> & {
  initialValues?: Record<string, unknown>;
  mode?: FormMode;
  onValuesChange?: (values: Record<string, unknown>) => void;
};

/** The form as a screen holds it: values in state, submitted through the handle. */
export function renderForm({ initialValues = {}, mode = 'edit', onValuesChange, services = fakeServices(), language = 'en', ...props }: HarnessProps & { services?: FormServices; language?: 'en' | 'zh-CN' }) {
  const ref = createRef<ContractFormHandle>();
  const changes = vi.fn(onValuesChange);
  void i18n.changeLanguage(language);
  function Harness() {
    const [values, setValues] = useState(initialValues);
    return (
      <ContractForm
        ref={ref}
        {...props}
        mode={mode}
        values={values}
        onValuesChange={(next) => {
          changes(next);
          setValues(next);
        }}
      />
    );
  }
  const result = render(
    <I18nextProvider i18n={i18n}>
      <FormServicesProvider services={services}>
        <Harness />
      </FormServicesProvider>
    </I18nextProvider>,
  );
  return { ...result, ref, changes, lastValues: () => changes.mock.lastCall?.[0] as Record<string, unknown> | undefined };
}
