// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreviewRule } from '../../../src-shared/domain/numbering';
import { ContractForm } from '../../../src-renderer/features/contract-form/ContractForm';
import { FormServicesProvider } from '../../../src-renderer/features/contract-form/FormServicesContext';
import { FormContractProvider } from '../../../src-renderer/features/contract-form/fields/complex/services';
import { fakeServices, field } from './support';

// Issue 29: the number field previews the rule that applies to this contract, by the type chosen
// in the form (or the draft's template's): not every rule, and not 'please enter the number' on a
// number locked to a staff member.

afterEach(cleanup);

const rule = (id: string, conditionType: 0 | 1 | 2 | 3, values: string[], format: string): PreviewRule => ({ id, format, conditionType, values, referenceFields: ['contractType'] });
const byType = [rule('pa', 1, ['t-purchase'], 'PA-2026-0002'), rule('sa', 1, ['t-sales'], 'SA-2026-0007')];
const contractTypes = [
  { id: 't-purchase', name: 'Purchase', parentId: null, disabled: false },
  { id: 't-sales', name: 'Sales', parentId: null, disabled: false },
  { id: 't-nda', name: 'NDA', parentId: null, disabled: false },
];
const typeField = field({ id: 'type', name: '合同类型', type: 'contractType' });
const numberField = field({ id: 'n', name: 'contract number', type: 'contractNumber' });
const fields = [typeField, numberField];

function renderForm(options: { values?: Record<string, unknown>; isNumberEditor?: boolean; numberingPreview?: PreviewRule[]; contractTypeId?: string | null; formFields?: typeof fields }) {
  const services = fakeServices({
    catalogue: { refreshedAt: null, templates: [], contractTypes, numberingPreview: options.numberingPreview ?? byType, isNumberEditor: options.isNumberEditor ?? false },
  });
  function Harness() {
    const [values, setValues] = useState<Record<string, unknown>>(options.values ?? {});
    return <ContractForm fields={options.formFields ?? fields} mode="edit" values={values} onValuesChange={setValues} />;
  }
  return render(
    <FormServicesProvider services={services}>
      <FormContractProvider contractId={null} contractTypeId={options.contractTypeId ?? null}>
        <Harness />
      </FormContractProvider>
    </FormServicesProvider>,
  );
}

const numberInput = () => screen.getByRole('textbox', { name: 'contract number' }) as HTMLInputElement;

describe('the contract number by the contract’s type', () => {
  it('previews the chosen type’s rule only, in the placeholder and the 400-wide popover', async () => {
    renderForm({ values: { type: 't-sales' } });
    expect(numberInput().disabled).toBe(true);
    expect(numberInput().placeholder).toBe('Numbered automatically: SA-2026-0007');
    await userEvent.click(screen.getByRole('button', { name: 'Auto-numbering rules' }));
    const popover = await screen.findByTestId('contract-number-rule');
    expect(popover.style.width).toBe('400px');
    expect(popover.textContent).toContain('The rule of contract type Sales');
    expect(within(popover).getByText('SA-2026-0007')).toBeTruthy();
    expect(popover.textContent).not.toContain('PA-2026-0002');
  });

  it('takes the draft’s template type when the form has no type field', () => {
    renderForm({ formFields: [numberField], contractTypeId: 't-purchase' });
    expect(numberInput().placeholder).toBe('Numbered automatically: PA-2026-0002');
  });

  it('is editable, with no rule preview, for a type without a rule, and for no type at all', () => {
    renderForm({ values: { type: 't-nda' } });
    expect(numberInput().disabled).toBe(false);
    expect(numberInput().placeholder).toBe('');
    expect(screen.queryByRole('button', { name: 'Auto-numbering rules' })).toBeNull();
    cleanup();
    renderForm({});
    expect(numberInput().disabled).toBe(false);
  });

  it('stays editable for number editors under a rule', () => {
    renderForm({ values: { type: 't-sales' }, isNumberEditor: true });
    expect(numberInput().disabled).toBe(false);
    expect(screen.queryByRole('button', { name: 'Auto-numbering rules' })).toBeNull();
  });

  it('never asks a staff member to enter a number locked to them', async () => {
    renderForm({ values: { type: 't-purchase' } });
    expect(screen.queryByRole('button', { name: 'Check duplicates' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Check all numbers' }));
    expect(screen.queryByText('Please enter the number')).toBeNull();
  });

  it('follows the default rule and the initiator’s department rule the catalogue keeps', async () => {
    renderForm({ values: { type: 't-nda' }, numberingPreview: [rule('dep', 3, ['east'], 'HD-0001')] });
    expect(numberInput().placeholder).toBe('Numbered automatically: HD-0001');
    await userEvent.click(screen.getByRole('button', { name: 'Auto-numbering rules' }));
    expect((await screen.findByTestId('contract-number-rule')).textContent).toContain('The rule of your department');
  });
});
