import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { FieldType } from '../../../../src-shared/domain/enums';
import { formFieldSchema, type CalculationValue, type FormField } from '../../../../src-shared/form/field-config';
import { ContractForm } from '../../../../src-renderer/features/contract-form/ContractForm';
import { FormServicesProvider } from '../../../../src-renderer/features/contract-form/FormServicesContext';
import type { FormServices } from '../../../../src-renderer/features/contract-form/types';
import { i18n, initI18n } from '../../../../src-renderer/i18n/i18n';

// The page `npm run bench` loads in Chromium (bench/form-render.bench.ts): a 60-field contract
// form whose price field has 10 calculated dependants. It times, in the page, mounting the form
// and each keystroke into price up to the layout that follows (React flushes a controlled
// input's update before the input event returns).

const plainTypes: FieldType[] = ['text', 'textarea', 'number', 'money', 'date', 'select', 'bool', 'daterange', 'radio', 'multiselect', 'bankAccount', 'checkbox'];
const options = [
  { id: 'a', name: 'Option A' },
  { id: 'b', name: 'Option B' },
  { id: 'c', name: 'Option C' },
];

function sixtyFields(): FormField[] {
  const plain = Array.from({ length: 49 }, (_, i) => {
    const type = plainTypes[i % plainTypes.length]!;
    return formFieldSchema.parse({ id: `f${i}`, name: `Field ${i}`, type, required: i % 2 === 0, options });
  });
  const price = formFieldSchema.parse({ id: 'price', name: 'Price', type: 'number', required: true });
  // Ten dependants of price, half of them chained through the one before.
  const calculated = Array.from({ length: 10 }, (_, i) => {
    const valueList: CalculationValue[] = [{ valueMethod: 1, fieldId: i % 2 === 1 ? `calc${i - 1}` : 'price' }, { valueMethod: 2, value: '1.13' }];
    return formFieldSchema.parse({
      id: `calc${i}`,
      name: `Calculated ${i}`,
      type: 'number',
      fieldConfig: { fieldContent: { contentType: 1 }, calculationConditionGroup: { valueList, calculationWays: [3] } },
    });
  });
  return [...plain, price, ...calculated];
}

const fields = sixtyFields();
const unavailable = () => Promise.reject(new Error('not used by the bench'));
const services: FormServices = {
  searchParties: unavailable,
  onlineCall: unavailable,
  upload: unavailable,
  catalogue: { refreshedAt: null, templates: [], contractTypes: [], numberingPreview: [], isNumberEditor: false },
  organizationShare: false,
  openRoute: () => undefined,
};

function BenchForm() {
  const [values, setValues] = useState<Record<string, unknown>>({ f0: 'text', f2: '3' });
  return <ContractForm fields={fields} values={values} onValuesChange={setValues} mode="edit" />;
}

function mount() {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const start = performance.now();
  flushSync(() =>
    root.render(
      <I18nextProvider i18n={i18n}>
        <FormServicesProvider services={services}>
          <BenchForm />
        </FormServicesProvider>
      </I18nextProvider>,
    ),
  );
  void container.getBoundingClientRect();
  return { ms: performance.now() - start, unmount: () => (root.unmount(), container.remove()) };
}

const setInputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;

function keystrokes(count: number): number[] {
  const form = mount();
  const price = document.getElementById('contract-form-input-price') as HTMLInputElement;
  const last = () => document.querySelector('[data-testid="preview-calc9"]')?.textContent;
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const before = last();
    const start = performance.now();
    setInputValue.call(price, `${1000 + (i % 9000)}.${i % 100}`);
    price.dispatchEvent(new Event('input', { bubbles: true }));
    void price.getBoundingClientRect();
    samples.push(performance.now() - start);
    // A keystroke counts only if its dependants were redrawn before the time was taken.
    if (last() === before) throw new Error(`keystroke ${i} did not update the calculated fields synchronously`);
  }
  form.unmount();
  return samples;
}

function renders(count: number): number[] {
  return Array.from({ length: count }, () => {
    const form = mount();
    form.unmount();
    return form.ms;
  });
}

initI18n('zh-CN');
Object.assign(window, { formBench: { renders, keystrokes } });
