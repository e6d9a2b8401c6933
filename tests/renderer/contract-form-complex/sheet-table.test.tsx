// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SheetTableValue } from '../../../src-renderer/features/contract-form/fields/complex/sheet/SheetTableField';
import type { SheetColumn } from '../../../src-shared/form/performance-sheet';
import { field, renderField } from './support';

const sheetField = field({ id: 'sh', name: 'performance plan', type: 'sheetTable' });
const columns: SheetColumn[] = [
  { id: 'index', name: 'index', type: 'index' },
  { id: 'id', name: 'id', type: 'id' },
  { id: 'content', name: 'performance content', type: 'text', isRequired: true },
  { id: 'amount', name: 'receivable amount', type: 'money', config: { valueRange: { mode: 1, conditions: [{ comparator: 'greater', value: '0' }, { comparator: 'lessOrEqual', value: '1000' }] } } },
  { id: 'time', name: 'performance time', type: 'performanceTime', config: { options: [{ id: 'sign', name: 'signing' }] } },
];
const sheet = (rows: unknown[][]): SheetTableValue => ({ columns, rows });
const rows = () => screen.getAllByRole('row').slice(1);

afterEach(cleanup);

describe('performance sheet table', () => {
  it("adds rows with '+ Add a row' numbered max + 1 and keeps the last row undeletable", async () => {
    const view = renderField(sheetField, { value: sheet([[3, 't3', 'deliver', null, { kind: 'date', date: '2026-12-01' }]]) });
    expect((within(rows()[0]!).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: '+ Add a row' }));
    expect((view.value() as SheetTableValue).rows[1]).toEqual([4, null, null, null, null]);
    expect((within(rows()[0]!).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(within(rows()[1]!).getByRole('button', { name: 'Delete' }));
    expect((view.value() as SheetTableValue).rows).toHaveLength(1);
  });

  it('shows the column placeholders and the required mark', () => {
    renderField(sheetField, { value: sheet([[1, null, '', null, null]]) });
    expect(screen.getByPlaceholderText('Please fill in performance content')).toBeTruthy();
    expect(screen.getByPlaceholderText('Please enter the payment amount')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'performance content' }).textContent).toBe('performance content *');
    expect(screen.getByRole('columnheader', { name: 'receivable amount' }).textContent).toBe('receivable amount');
  });

  it("checks value ranges with 'The value range is invalid' and asks for the time the user chose", async () => {
    const view = renderField(sheetField, { value: sheet([[1, null, 'deliver', null, null]]) });
    await userEvent.type(screen.getByRole('textbox', { name: 'receivable amount' }), '2000');
    expect(screen.getByText('The value range is invalid')).toBeTruthy();
    expect(screen.getByText('Please enter the date and time')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'performance time: Condition' }), 'condition');
    expect(screen.getByText('Please enter the condition time')).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'performance time: Reference node' }), 'sign');
    await userEvent.type(screen.getByRole('textbox', { name: 'performance time: days after' }), '5');
    expect(view.issues().map((i) => [i.field, i.message.text])).toEqual([['sh.0.amount', 'The value range is invalid']]);
    const amount = screen.getByRole('textbox', { name: 'receivable amount' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.5');
    expect((view.value() as SheetTableValue).rows[0]![3]).toEqual({ amount: 1250, unit: 'CNY' });
    expect(view.issues()).toEqual([]);
  });

  it('opens the full-screen dialog at 50% or 85% by column count', async () => {
    renderField(sheetField, { value: sheet([[1, null, 'a', null, null]]) });
    await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(screen.getByRole('dialog').style.width).toBe('50%');
    await userEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    cleanup();
    const wide = Array.from({ length: 7 }, (_, i): SheetColumn => ({ id: `c${i}`, name: `column ${i}`, type: 'text' }));
    renderField(sheetField, { value: { columns: wide, rows: [wide.map(() => 'x')] } });
    await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(screen.getByRole('dialog').style.width).toBe('85%');
  });

  it('shows a field-details button while hidden in preview, then the read-only table', async () => {
    renderField(sheetField, { value: sheet([[1, 't1', 'deliver', { amount: 123456, unit: 'CNY' }, { kind: 'date', date: '2026-12-01' }]]), mode: 'preview' });
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Field details' }));
    expect(screen.getByText('1,234.56 CNY')).toBeTruthy();
    expect(screen.getByText('1 Dec 2026')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: '+ Add a row' })).toBeNull();
  });

  it('locks every cell when disabled', () => {
    renderField(sheetField, { value: sheet([[1, null, 'deliver', null, null]]), mode: 'disabled' });
    expect(screen.getByText('deliver')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
