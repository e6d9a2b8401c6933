// @vitest-environment jsdom
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formMessage } from '../../../src-shared/form/messages';
import { FormValidationError } from '../../../src-shared/form/validation';
import type { fieldComponents } from '../../../src-renderer/features/contract-form/fields/registry';
import type { FieldComponent, FieldProps } from '../../../src-renderer/features/contract-form/types';
import { useContractFormContext } from '../../../src-renderer/features/contract-form/formContext';
import { createValidatorRegistry, useRegisterValidator } from '../../../src-renderer/features/contract-form/validators';
import { field, renderForm } from './support';

// The registry is replaced so the tests can host a complex-field stand-in that registers a
// validator, and count how often each field renders.

const renders = vi.hoisted(() => new Map<string, number>());

vi.mock('../../../src-renderer/features/contract-form/fields/registry', async (importOriginal) => {
  const original = await importOriginal<{ fieldComponents: typeof fieldComponents }>();
  const counted = (Component: FieldComponent): FieldComponent =>
    function Counted(props: FieldProps<never>) {
      renders.set(props.field.id, (renders.get(props.field.id) ?? 0) + 1);
      return <Component {...props} />;
    };
  return {
    fieldComponents: {
      text: counted(original.fieldComponents.text!),
      number: counted(original.fieldComponents.number!),
      relationProject: counted(PartyRows as FieldComponent),
    },
  };
});

/** Stands in for a complex field whose sub-form validates itself. */
function PartyRows({ field: config }: FieldProps<string>) {
  const form = useContractFormContext();
  useRegisterValidator(config.id, (values) => (values[config.id] === undefined ? [{ field: `${config.id}.0`, message: formMessage('pleaseFillIn', { name: config.name }) }] : []));
  // The form's fields and value setter (for fields that fill others) are not what is checked here.
  const { fieldComponents, fields: _fields, changeValues: _changeValues, ...shown } = form;
  return (
    <span data-testid="party-rows" data-components={Object.keys(fieldComponents).join(",")}>
      {JSON.stringify(shown)}
    </span>
  );
}

beforeEach(() => renders.clear());
afterEach(cleanup);

describe('registered validators (useRegisterValidator)', () => {
  const fields = [field({ id: 'parties', name: 'Parties', type: 'relationProject' }), field({ id: 'name', type: 'text' })];

  it('take part in submit validation and show under their field', async () => {
    const onValidateError = vi.fn();
    const { ref } = renderForm({ fields, onValidateError });
    let failure: unknown;
    await act(() => ref.current!.submit().catch((error: unknown) => (failure = error)));
    expect(failure).toBeInstanceOf(FormValidationError);
    expect(onValidateError).toHaveBeenCalledWith({ type: 'validate', issues: [{ field: 'parties.0', message: formMessage('pleaseFillIn', { name: 'Parties' }) }] });
    expect(screen.getByTestId('field-error-parties').textContent).toBe('Please fill in Parties');
  });

  it('are set aside by the ignorable keys of their field', async () => {
    const onSubmit = vi.fn();
    const { ref } = renderForm({ fields, ignoredKeys: ['parties'], onSubmit });
    await act(() => ref.current!.submit());
    expect(onSubmit).toHaveBeenCalledWith({});
  });

  it('are removed with their field', () => {
    const registry = createValidatorRegistry();
    const issue = { field: 'parties', message: formMessage('noData') };
    const remove = registry.register('parties', () => [issue]);
    expect(registry.issues({})).toEqual([issue]);
    expect(registry.issues({}, new Set(['name']))).toEqual([]);
    remove();
    expect(registry.issues({})).toEqual([]);
  });
});

it('gives complex fields the form mode, alteration, clauses, the template-approval flag and the field components', () => {
  const clauses = [{ labelID: 'l1', name: 'Payment', isNullable: false, bookmarkName: null, statementList: [] }];
  renderForm({ fields: [field({ id: 'parties', type: 'relationProject' })], mode: 'disabled', alteration: true, clauses, templateApproval: true });
  expect(JSON.parse(screen.getByTestId('party-rows').textContent!)).toEqual({ mode: 'disabled', alteration: true, clauses, templateApproval: true });
  expect(screen.getByTestId('party-rows').dataset.components).toBe('text,number,relationProject');
});

describe('re-rendering', () => {
  const times = (id: string, fieldId: string) =>
    field({
      id,
      type: 'number',
      fieldConfig: {
        fieldContent: { contentType: 1 },
        calculationConditionGroup: { valueList: [{ valueMethod: 1, fieldId }, { valueMethod: 2, value: '2' }], calculationWays: [3] },
      },
    });

  it('a keystroke re-renders the edited field and its calculated dependants only', async () => {
    const others = Array.from({ length: 20 }, (_, i) => field({ id: `t${i}`, type: 'text' }));
    const dependants = Array.from({ length: 5 }, (_, i) => times(`c${i}`, 'price'));
    renderForm({ fields: [field({ id: 'price', type: 'number' }), ...dependants, ...others] });
    renders.clear();
    await userEvent.type(screen.getByLabelText('Field price'), '7');
    expect(renders.get('price')).toBe(1);
    for (const dependant of dependants) expect(renders.get(dependant.id)).toBe(1);
    for (const other of others) expect(renders.get(other.id)).toBeUndefined();
  });
});
