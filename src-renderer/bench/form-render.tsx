import '../zod-config';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '../app/app.css';
import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useLayoutEffect, useState, type ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { BenchForm, FormRenderBench } from '../../bench/fixtures/form-render-page';
import { priceFieldId, sixtyFieldForm } from '../../bench/fixtures/sixty-field-form';
import { ContractForm, fieldInputId } from '../features/contract-form';
import { initI18n } from '../i18n/i18n';

// The page `bench/form-render.bench.ts` drives in Chromium (a separate vite entry, never part of
// the app's bundle). It renders the 60-field contract form through the real engine, and the same
// 60 rows as plain Blueprint inputs without the engine (the floor), and times in the page itself:
// a mount from render() to the committed, laid-out DOM; a keystroke from its keydown to the last
// React commit it caused (a layout effect of the screen holding the values).

declare global {
  interface Window {
    formRenderBench: FormRenderBench;
  }
}

initI18n('en');
const fields = sixtyFieldForm();
let lastKeyDown = 0;
let lastCommit = 0;
document.addEventListener('keydown', () => (lastKeyDown = performance.now()), { capture: true });

function useCommitClock() {
  useLayoutEffect(() => {
    lastCommit = performance.now();
  });
}

/** The screen's side of the form: it holds the values, as the contract screens do. */
function EngineForm() {
  const [values, setValues] = useState<Record<string, unknown>>({ f0: '2' });
  useCommitClock();
  return <ContractForm fields={fields} values={values} onValuesChange={setValues} mode="edit" />;
}

function PlainForm() {
  const [values, setValues] = useState<Record<string, string>>({ f0: '2' });
  useCommitClock();
  return (
    <div>
      {fields.map((field) => (
        <FormGroup key={field.id} label={field.name} labelFor={fieldInputId(field.id)}>
          <InputGroup id={fieldInputId(field.id)} value={values[field.id] ?? ''} onValueChange={(value) => setValues((v) => ({ ...v, [field.id]: value }))} />
        </FormGroup>
      ))}
    </div>
  );
}

const forms: Record<BenchForm, () => ReactElement> = { engine: () => <EngineForm />, plain: () => <PlainForm /> };
const container = document.getElementById('root')!;
let root: Root | null = null;

function unmount(): void {
  root?.unmount();
  root = null;
}

function mountForm(form: BenchForm): void {
  root = createRoot(container);
  flushSync(() => root!.render(forms[form]()));
  // Style and layout of the new DOM are part of rendering the form.
  void container.offsetHeight;
}

window.formRenderBench = {
  mount(form, times) {
    const samples: number[] = [];
    for (let i = 0; i < times; i += 1) {
      unmount();
      const start = performance.now();
      mountForm(form);
      samples.push(performance.now() - start);
    }
    return samples;
  },
  show(form) {
    unmount();
    mountForm(form);
    document.getElementById(fieldInputId(priceFieldId))?.focus();
  },
  // A macrotask lets any follow-up commit of the keystroke land before reading the clock.
  settled: () => new Promise((resolve) => setTimeout(() => resolve(lastCommit - lastKeyDown), 0)),
  priceInputId: fieldInputId(priceFieldId),
};
