// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldType, FormMode } from '../../../src-shared/domain/enums';
import { FormValidationError } from '../../../src-shared/form/validation';
import { field, renderForm } from './support';

afterEach(cleanup);

const modeOf = (id: string) => screen.getByTestId(`field-${id}`).getAttribute('data-mode');

describe('field modes', () => {
  it.each<[string, FormMode, Parameters<typeof field>[0], FormMode]>([
    ['an edit form', 'edit', { id: 'a', type: 'text' }, 'edit'],
    ['a preview form', 'preview', { id: 'a', type: 'text' }, 'preview'],
    ['a disabled form', 'disabled', { id: 'a', type: 'text' }, 'disabled'],
    ['a preview field', 'edit', { id: 'a', type: 'text', preview: true }, 'preview'],
    ['a disabled field', 'edit', { id: 'a', type: 'text', disabled: true }, 'disabled'],
    ['a field with isEdit', 'edit', { id: 'a', type: 'text', isEdit: true }, 'disabled'],
    ['a preview field in a disabled form', 'disabled', { id: 'a', type: 'text', preview: true }, 'preview'],
  ])('%s renders %s fields as %s', (_, formMode, config, expected) => {
    renderForm({ fields: [field(config)], mode: formMode });
    expect(modeOf('a')).toBe(expected);
  });

  it('renders preview fields as read-only text and edit fields as inputs', () => {
    renderForm({ fields: [field({ id: 'a', type: 'text' }), field({ id: 'b', type: 'text', preview: true })], initialValues: { a: 'one', b: 'two' } });
    expect(screen.getByLabelText('Field a')).toHaveProperty('value', 'one');
    expect(screen.getByTestId('preview-b').textContent).toBe('two');
  });
});

describe('contract alteration editability (spec 4)', () => {
  it.each<[string, { type: FieldType; name?: string; alterEditStatus?: number; isEdit?: boolean }, FormMode]>([
    ['alterEditStatus 2', { type: 'text', alterEditStatus: 2 }, 'edit'],
    ['alterEditStatus 2 even with isEdit', { type: 'text', alterEditStatus: 2, isEdit: true }, 'edit'],
    ['alterEditStatus 1', { type: 'text', alterEditStatus: 1 }, 'disabled'],
    ['no alterEditStatus', { type: 'number' }, 'disabled'],
    ['upload', { type: 'upload', alterEditStatus: 2 }, 'disabled'],
    ['contract type', { type: 'contractType', alterEditStatus: 2 }, 'disabled'],
    ['contract number', { type: 'contractNumber', alterEditStatus: 2 }, 'disabled'],
    ['serial number', { type: 'serialNumber', alterEditStatus: 2 }, 'disabled'],
    ["the field named 'contract name'", { type: 'text', name: 'contract name', alterEditStatus: 2 }, 'disabled'],
    ['the field named 合同名称', { type: 'text', name: '合同名称', alterEditStatus: 2 }, 'disabled'],
  ])('%s → %s', (_, config, expected) => {
    renderForm({ fields: [field({ id: 'a', ...config })], alteration: true });
    expect(modeOf('a')).toBe(expected);
  });

  it('outside alteration only isEdit closes a field', () => {
    renderForm({ fields: [field({ id: 'a', type: 'text', alterEditStatus: 1 }), field({ id: 'b', type: 'text', isEdit: true })] });
    expect([modeOf('a'), modeOf('b')]).toEqual(['edit', 'disabled']);
  });
});

describe('submitting', () => {
  const required = [field({ id: 'name', name: 'Name', type: 'text', required: true }), field({ id: 'note', type: 'textarea' })];

  it('Enter submits only with submitOnEnter, and never from a textarea', async () => {
    const onSubmit = vi.fn();
    renderForm({ fields: required, initialValues: { name: 'x' }, onSubmit, submitOnEnter: true });
    await userEvent.type(screen.getByLabelText('Field note'), 'line{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText(/Name/), '{Enter}');
    expect(onSubmit).toHaveBeenCalledWith({ name: 'x', note: 'line\n' });
  });

  it('Enter on a select or button does its own thing, not submit', async () => {
    const onSubmit = vi.fn();
    renderForm({ fields: [field({ id: 's', name: 'Kind', type: 'select', options: [{ id: 'a', name: 'A' }] })], onSubmit, submitOnEnter: true });
    fireEvent.keyDown(screen.getByLabelText('Kind'), { key: 'Enter' });
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('Enter does nothing without submitOnEnter', async () => {
    const onSubmit = vi.fn();
    renderForm({ fields: required, initialValues: { name: 'x' }, onSubmit });
    await userEvent.type(screen.getByLabelText(/Name/), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("validates first: 'Validation failed', the validate event and the field's message", async () => {
    const onSubmit = vi.fn();
    const onValidateError = vi.fn();
    const { ref } = renderForm({ fields: required, onSubmit, onValidateError });
    expect(screen.queryByTestId('field-error-name')).toBeNull();
    let failure: unknown;
    await act(() => ref.current!.submit().catch((error: unknown) => (failure = error)));
    expect(failure).toBeInstanceOf(FormValidationError);
    expect((failure as Error).message).toBe('Validation failed');
    const issues = [{ field: 'name', message: { key: 'pleaseEnter', params: { name: 'Name' }, text: 'Please enter Name' } }];
    expect(onValidateError).toHaveBeenCalledWith({ type: 'validate', issues });
    expect(ref.current!.issues()).toEqual(issues);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByTestId('field-error-name').textContent).toBe('Please enter Name');
  });

  it('Enter with an invalid form emits the validate event', async () => {
    const onValidateError = vi.fn();
    renderForm({ fields: required, onValidateError, submitOnEnter: true });
    await userEvent.type(screen.getByLabelText(/Name/), '{Enter}');
    expect(onValidateError).toHaveBeenCalledWith(expect.objectContaining({ type: 'validate' }));
  });

  it('ignorable keys are set aside', async () => {
    const onSubmit = vi.fn();
    const { ref } = renderForm({ fields: required, ignoredKeys: ['name'], onSubmit, initialValues: { note: 'n' } });
    await act(() => ref.current!.submit());
    expect(onSubmit).toHaveBeenCalledWith({ note: 'n' });
    expect(screen.queryByTestId('field-error-name')).toBeNull();
  });

  it('shows a message after the field loses focus, and clears it once valid', async () => {
    renderForm({ fields: required });
    const input = screen.getByLabelText(/Name/);
    fireEvent.blur(input);
    expect(screen.getByTestId('field-error-name').textContent).toBe('Please enter Name');
    await userEvent.type(input, 'a');
    expect(screen.queryByTestId('field-error-name')).toBeNull();
  });

  it('shows messages in the UI language', async () => {
    const { ref } = renderForm({ fields: required, language: 'zh-CN' });
    await act(() => ref.current!.submit().catch(() => undefined));
    expect(screen.getByTestId('field-error-name').textContent).toBe('请输入Name');
  });

  it('marks required fields outside preview', () => {
    renderForm({ fields: required });
    expect(within(screen.getByTestId('field-name')).getByText('*')).toBeTruthy();
    cleanup();
    renderForm({ fields: required, mode: 'preview' });
    expect(within(screen.getByTestId('field-name')).queryByText('*')).toBeNull();
  });
});

describe('calculated fields', () => {
  const times = (id: string, name: string, fieldId: string, constant: string, extra = {}) =>
    field({
      id,
      name,
      type: 'number',
      fieldConfig: {
        fieldContent: { contentType: 1 },
        calculationConditionGroup: { valueList: [{ valueMethod: 1, fieldId }, { valueMethod: 2, value: constant }], calculationWays: [3] },
      },
      ...extra,
    });

  it('recalculates the dependants of a typed field, in cascade', async () => {
    const fields = [field({ id: 'price', type: 'number' }), times('double', 'Double', 'price', '2'), times('sixfold', 'Sixfold', 'double', '3')];
    const { lastValues } = renderForm({ fields });
    await userEvent.type(screen.getByLabelText('Field price'), '1.5');
    expect(lastValues()).toEqual({ price: '1.5', double: '3.00', sixfold: '9.00' });
    expect(screen.getByTestId('preview-double').textContent).toBe('3.00');
    expect(screen.getByTestId('preview-sixfold').textContent).toBe('9.00');
    expect(modeOf('double')).toBe('preview');
    expect(within(screen.getByTestId('field-double')).getByText(/Calculated/)).toBeTruthy();
  });

  it('money takes part in major units and keeps its hundredths and unit', async () => {
    const total = field({
      id: 'total',
      type: 'money',
      fieldConfig: {
        fieldContent: { contentType: 2 },
        calculationConditionGroup: { valueList: [{ valueMethod: 1, fieldId: 'price' }, { valueMethod: 2, value: '3' }], calculationWays: [3] },
      },
    });
    const { lastValues } = renderForm({ fields: [field({ id: 'price', name: 'Price', type: 'money' }), total] });
    await userEvent.type(screen.getByLabelText('Price'), '0.1');
    expect(lastValues()).toEqual({ price: { amount: 10, unit: 'CNY' }, total: { amount: 30, unit: 'CNY' } });
    expect(screen.getByTestId('preview-total').textContent).toBe('0.30');
  });

  it('calculates fields made only of constants at once', () => {
    const constant = field({
      id: 'fee',
      type: 'number',
      privateConfig: { numberFormat: 6 },
      fieldConfig: {
        fieldContent: { contentType: 5 },
        calculationConditionGroup: { valueList: [{ valueMethod: 2, value: '1' }, { valueMethod: 2, value: '8' }], calculationWays: [4] },
      },
    });
    const { lastValues } = renderForm({ fields: [constant] });
    expect(lastValues()).toEqual({ fee: '12.50' });
    expect(screen.getByTestId('preview-fee').textContent).toBe('12.50%');
  });

  it('shows division by zero under the field', async () => {
    const ratio = field({
      id: 'ratio',
      name: 'Ratio',
      type: 'number',
      fieldConfig: {
        fieldContent: { contentType: 1 },
        calculationConditionGroup: { valueList: [{ valueMethod: 2, value: '1' }, { valueMethod: 1, fieldId: 'd' }], calculationWays: [4] },
      },
    });
    renderForm({ fields: [field({ id: 'd', type: 'number' }), ratio] });
    await userEvent.type(screen.getByLabelText('Field d'), '0');
    expect(screen.getByTestId('field-error-ratio').textContent).toBe('Division by zero while calculating Ratio');
    await userEvent.type(screen.getByLabelText('Field d'), '{Backspace}4');
    expect(screen.getByTestId('preview-ratio').textContent).toBe('0.25');
    expect(screen.queryByTestId('field-error-ratio')).toBeNull();
  });

  it('names a referenced field that the form does not have', () => {
    renderForm({ fields: [times('double', 'Double', 'gone', '2')] });
    expect(screen.getByTestId('field-error-double').textContent).toBe('The calculation of Double refers to a missing field gone');
  });

  it('reports a cycle and calculates nothing', async () => {
    const fields = [times('a', 'A', 'b', '2'), times('b', 'B', 'a', '2'), field({ id: 'c', type: 'number' })];
    const { lastValues } = renderForm({ fields });
    expect(screen.getByTestId('contract-form-calculation-cycle').textContent).toBe('Calculated fields depend on each other in a cycle: A → B → A');
    await userEvent.type(screen.getByLabelText('Field c'), '1');
    expect(lastValues()).toEqual({ c: '1' });
  });
});

it("renders an unknown type as an 'unsupported field type' notice", () => {
  renderForm({ fields: [{ ...field({ id: 'a', type: 'text' }), type: 'signature' as FieldType }, field({ id: 'b', type: 'text' })] });
  expect(screen.getByTestId('unsupported-a').textContent).toBe('Unsupported field type signature');
  expect(screen.getByLabelText('Field b')).toBeTruthy();
});
