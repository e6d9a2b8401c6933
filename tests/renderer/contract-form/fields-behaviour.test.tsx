// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldOption } from '../../../src-shared/form/field-config';
import { emptyCatalogue, fakeServices, field, renderForm } from './support';

// What each basic field does while typed into, and every message it owns.

afterEach(cleanup);

const submit = async (ref: ReturnType<typeof renderForm>['ref']) => act(() => ref.current!.submit().catch(() => undefined));
const errorOf = (id: string) => screen.queryByTestId(`field-error-${id}`)?.textContent ?? null;

describe('text', () => {
  it.each([
    ['contract name', 'a\\b/c:d*e?f"g<h>i|j：k？l', 'abcdefghijkl'],
    ['合同名称', '采购：合同？', '采购合同'],
    ['Title', 'a/b:c', 'a/b:c'],
  ])("the field named '%s' keeps %s as %s", async (name, typed, kept) => {
    const { lastValues } = renderForm({ fields: [field({ id: 'n', name, type: 'text' })] });
    await userEvent.type(screen.getByLabelText(name), typed);
    expect(lastValues()).toEqual({ n: kept });
    expect(screen.getByLabelText(name)).toHaveProperty('value', kept);
  });

  it.each([
    [undefined, 1000],
    [20, 20],
    [5000, 1000],
  ])('maxlength %s allows %s characters', (maxlength, max) => {
    renderForm({ fields: [field({ id: 't', type: 'text', ...(maxlength ? { maxlength } : {}) })] });
    expect(screen.getByLabelText('Field t')).toHaveProperty('maxLength', max);
  });

  it("a kept value longer than maxlength fails with 'At most N characters'", async () => {
    const { ref } = renderForm({ fields: [field({ id: 't', type: 'text', maxlength: 3 })], initialValues: { t: 'abcd' } });
    await submit(ref);
    expect(errorOf('t')).toBe('At most 3 characters');
  });

  it("required and empty: 'please enter' and the name; clearing the text empties the value", async () => {
    const { ref, lastValues } = renderForm({ fields: [field({ id: 't', name: 'Subject', type: 'text', required: true })], initialValues: { t: 'x' } });
    await userEvent.clear(screen.getByLabelText(/Subject/));
    expect(lastValues()).toEqual({ t: undefined });
    await submit(ref);
    expect(errorOf('t')).toBe('Please enter Subject');
  });

  it('uses the configured placeholder, else the please-enter wording', () => {
    renderForm({ fields: [field({ id: 'a', name: 'Alpha', type: 'text', placeholder: 'type here' }), field({ id: 'b', name: 'Beta', type: 'text' })] });
    expect(screen.getByLabelText('Alpha').getAttribute('placeholder')).toBe('type here');
    expect(screen.getByLabelText('Beta').getAttribute('placeholder')).toBe('Please enter Beta');
  });
});

describe('textarea', () => {
  it('shows 3 rows and the characters used', async () => {
    renderForm({ fields: [field({ id: 't', type: 'textarea', maxlength: 50 })] });
    const area = screen.getByLabelText('Field t');
    expect(area).toHaveProperty('rows', 3);
    expect(area).toHaveProperty('maxLength', 50);
    await userEvent.type(area, 'abc');
    expect(screen.getByTestId('count-t').textContent).toBe('3/50');
  });
});

describe('number', () => {
  it.each([
    ['1.123456789', '1.12345678'],
    ['12a3', '123'],
    ['-4.5', '-4.5'],
    ['1.2.3', '1.23'],
    ['1234567890123456789', '123456789012345'],
  ])('typing %s keeps %s (8 decimals truncated, 15 characters)', async (typed, kept) => {
    const { lastValues } = renderForm({ fields: [field({ id: 'n', type: 'number' })] });
    await userEvent.type(screen.getByLabelText('Field n'), typed);
    expect(lastValues()).toEqual({ n: kept });
  });

  it('allows at most 15 characters', () => {
    renderForm({ fields: [field({ id: 'n', type: 'number' })] });
    expect(screen.getByLabelText('Field n')).toHaveProperty('maxLength', 15);
  });

  it("a kept value that is not a number fails with 'Please enter a valid number'", async () => {
    const { ref } = renderForm({ fields: [field({ id: 'n', type: 'number' })], initialValues: { n: '1.' } });
    await submit(ref);
    expect(errorOf('n')).toBe('Please enter a valid number');
  });
});

describe('number range', () => {
  const range = field({ id: 'r', type: 'number', rawType: 'numberRange' });

  it("a minimum above the maximum shows 'The minimum cannot be greater than the maximum' and clears the edited side", async () => {
    const { lastValues } = renderForm({ fields: [range], initialValues: { r: { min: '', max: '3' } } });
    await userEvent.type(screen.getByLabelText('Minimum'), '5');
    expect(screen.getByTestId('range-message-r').textContent).toBe('The minimum cannot be greater than the maximum');
    expect(lastValues()).toEqual({ r: { min: '', max: '3' } });
    await userEvent.type(screen.getByLabelText('Minimum'), '2');
    expect(screen.queryByTestId('range-message-r')).toBeNull();
    await userEvent.clear(screen.getByLabelText('Maximum'));
    await userEvent.type(screen.getByLabelText('Maximum'), '1');
    expect(lastValues()).toEqual({ r: { min: '2', max: '' } });
    expect(screen.getByTestId('range-message-r').textContent).toBe('The minimum cannot be greater than the maximum');
  });

  it('each bound keeps 8 decimals and 15 characters', async () => {
    const { lastValues } = renderForm({ fields: [range] });
    await userEvent.type(screen.getByLabelText('Maximum'), '0.1234567891');
    expect(lastValues()).toEqual({ r: { min: '', max: '0.12345678' } });
    expect(screen.getByLabelText('Minimum')).toHaveProperty('maxLength', 15);
  });
});

describe('money', () => {
  const money = (config = {}) => field({ id: 'm', name: 'Amount', type: 'money', ...config });

  it('keeps hundredths and the unit; decimals beyond cents are cut', async () => {
    const { lastValues } = renderForm({ fields: [money()] });
    await userEvent.type(screen.getByLabelText('Amount'), '1234.567');
    expect(lastValues()).toEqual({ m: { amount: 123456, unit: 'CNY' } });
    expect(screen.getByLabelText('Amount')).toHaveProperty('value', '1234.56');
    await userEvent.selectOptions(screen.getByLabelText('Currency'), 'USD');
    expect(lastValues()).toEqual({ m: { amount: 123456, unit: 'USD' } });
  });

  it('keeps a unit this app does not list', async () => {
    const { lastValues } = renderForm({ fields: [money()], initialValues: { m: { amount: 100, unit: 'GBP' } } });
    expect(screen.getByLabelText<HTMLSelectElement>('Currency').value).toBe('GBP');
    await userEvent.clear(screen.getByLabelText('Amount'));
    expect(lastValues()).toEqual({ m: null });
    await userEvent.type(screen.getByLabelText('Amount'), '10.05');
    expect(lastValues()).toEqual({ m: { amount: 1005, unit: 'GBP' } });
  });

  it("bad input shows 'Please enter a valid number' and changes nothing", async () => {
    const { lastValues } = renderForm({ fields: [money()], initialValues: { m: { amount: 500, unit: 'CNY' } } });
    await userEvent.type(screen.getByLabelText('Amount'), 'x');
    expect(screen.getByTestId('money-message-m').textContent).toBe('Please enter a valid number');
    expect(lastValues()).toBeUndefined();
    expect(screen.getByLabelText('Amount')).toHaveProperty('value', '5.00');
  });

  it('a unit chosen before the amount is kept', async () => {
    const { lastValues } = renderForm({ fields: [money()] });
    await userEvent.selectOptions(screen.getByLabelText('Currency'), 'EUR');
    expect(lastValues()).toBeUndefined();
    await userEvent.type(screen.getByLabelText('Amount'), '3');
    expect(lastValues()).toEqual({ m: { amount: 300, unit: 'EUR' } });
  });

  it('shows the amount in words when isWordAmount', async () => {
    renderForm({ fields: [money({ fieldConfig: { money: { isWordAmount: true } } })] });
    await userEvent.type(screen.getByLabelText('Amount'), '100.05');
    expect(screen.getByTestId('words-m').textContent).toBe('In words: 壹佰元零伍分');
  });

  it('names the units in the UI language', () => {
    renderForm({ fields: [money({ fieldConfig: { money: { isWithUnit: true } } })], initialValues: { m: { amount: 100, unit: 'USD' } }, mode: 'preview', language: 'zh-CN' });
    expect(screen.getByTestId('preview-m').textContent).toBe('1.00 美元');
  });

  it("required money of 0 fails with 'please enter' and the name", async () => {
    const { ref } = renderForm({ fields: [money({ required: true })], initialValues: { m: { amount: 0, unit: 'CNY' } } });
    await submit(ref);
    expect(errorOf('m')).toBe('Please enter Amount');
  });
});

describe('dates', () => {
  // Blueprint's date picker, never a native date input: the calendar opens on focus.
  const pickDay = async (input: HTMLElement, day: string) => {
    await userEvent.click(input);
    const calendar = await screen.findByRole('dialog', { name: 'date picker' });
    await userEvent.click(within(calendar).getByText(day, { selector: '.rdp-day:not(.rdp-day_outside) *, .rdp-day:not(.rdp-day_outside)' }));
  };

  it('choosing a date in the calendar keeps yyyy-MM-dd and shows it in English', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'd', name: 'Signed', type: 'date' })], initialValues: { d: '2026-02-01' } });
    const input = screen.getByLabelText<HTMLInputElement>('Signed');
    expect(input.type).toBe('text');
    expect(input.value).toBe('1 Feb 2026');
    await pickDay(input, '28');
    expect(lastValues()).toEqual({ d: '2026-02-28' });
    expect(input.value).toBe('28 Feb 2026');
  });

  it('shows and reads dates in Chinese for zh-CN, with a Chinese calendar', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'd', name: 'Signed', type: 'date' })], initialValues: { d: '2026-02-01' }, language: 'zh-CN' });
    const input = screen.getByLabelText<HTMLInputElement>('Signed');
    expect(input.value).toBe('2026年02月01日');
    await userEvent.click(input);
    const calendar = await screen.findByRole('dialog', { name: 'date picker' });
    expect(calendar.textContent).toMatch(/二月|2月/);
    await userEvent.clear(input);
    await userEvent.type(input, '2026年03月15日{Enter}');
    expect(lastValues()).toEqual({ d: '2026-03-15' });
  });

  it('typing a date in the display format keeps yyyy-MM-dd; clearing empties the value', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'd', name: 'Signed', type: 'date' })] });
    const input = screen.getByLabelText<HTMLInputElement>('Signed');
    await userEvent.type(input, '9 Oct 2031{Enter}');
    expect(lastValues()).toEqual({ d: '2031-10-09' });
    await userEvent.clear(input);
    expect(lastValues()).toEqual({ d: undefined });
  });

  it('a date-time is kept as yyyy-MM-dd HH:mm:ss', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'd', name: 'At', type: 'date-time' })], initialValues: { d: '2026-01-02 03:04:05' } });
    const input = screen.getByLabelText<HTMLInputElement>('At');
    expect(input.value).toBe('2 Jan 2026, 03:04:05');
    await pickDay(input, '20');
    expect(lastValues()).toEqual({ d: '2026-01-20 03:04:05' });
  });

  it('a range is kept as two yyyy/MM/dd days', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'p', type: 'daterange' })], initialValues: { p: ['2026/03/10', ''] } });
    await pickDay(screen.getByLabelText('Start date'), '1');
    expect(lastValues()).toEqual({ p: ['2026/03/01', ''] });
    await userEvent.type(screen.getByLabelText('End date'), '31 Mar 2026{Enter}');
    expect(lastValues()).toEqual({ p: ['2026/03/01', '2026/03/31'] });
  });

  it.each([
    [['2026/03/05', '2026/03/01'], 'The start date cannot be after the end date'],
    [['2026/03/05', ''], 'Invalid date'],
  ])('the range %j fails with %s', async (value, message) => {
    const { ref } = renderForm({ fields: [field({ id: 'p', type: 'daterange' })], initialValues: { p: value } });
    await submit(ref);
    expect(errorOf('p')).toBe(message);
  });

  it("a kept date that is not a real day fails with 'Invalid date'", async () => {
    const { ref } = renderForm({ fields: [field({ id: 'd', type: 'date' })], initialValues: { d: '2026-02-30' } });
    await submit(ref);
    expect(errorOf('d')).toBe('Invalid date');
  });
});

describe('choices', () => {
  const options: FieldOption[] = [
    { id: 'a', name: 'Alpha' },
    { id: 'b', name: 'Beta' },
    { id: 'z', name: 'Closed', disabled: true },
  ];

  it('bool switches', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'b', name: 'Signed', type: 'bool' })] });
    await userEvent.click(screen.getByLabelText('Signed'));
    expect(lastValues()).toEqual({ b: true });
  });

  it('select keeps the option id; disabled options cannot be chosen', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 's', name: 'Kind', type: 'select', options })] });
    const select = screen.getByLabelText('Kind');
    expect(within(select).getByRole('option', { name: 'Please select Kind' })).toBeTruthy();
    expect(within(select).getByRole<HTMLOptionElement>('option', { name: 'Closed' }).disabled).toBe(true);
    await userEvent.selectOptions(select, 'b');
    expect(lastValues()).toEqual({ s: 'b' });
  });

  it('multiselect adds and removes ids', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 's', name: 'Kinds', type: 'multiselect', options })] });
    await userEvent.selectOptions(screen.getByLabelText('Kinds'), 'a');
    await userEvent.selectOptions(screen.getByLabelText('Kinds'), 'b');
    expect(lastValues()).toEqual({ s: ['a', 'b'] });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Alpha' }));
    expect(lastValues()).toEqual({ s: ['b'] });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Beta' }));
    expect(lastValues()).toEqual({ s: undefined });
  });

  it('radio keeps one id', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'r', type: 'radio', options })] });
    await userEvent.click(screen.getByLabelText('Beta'));
    expect(lastValues()).toEqual({ r: 'b' });
    expect(screen.getByLabelText<HTMLInputElement>('Closed').disabled).toBe(true);
  });

  it('checkbox keeps the ticked ids', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'c', type: 'checkbox', options })] });
    await userEvent.click(screen.getByLabelText('Alpha'));
    await userEvent.click(screen.getByLabelText('Beta'));
    await userEvent.click(screen.getByLabelText('Alpha'));
    expect(lastValues()).toEqual({ c: ['b'] });
  });

  it("a required choice left empty fails with 'please enter' and the name", async () => {
    const { ref } = renderForm({ fields: [field({ id: 'c', name: 'Kinds', type: 'checkbox', options, required: true })] });
    await submit(ref);
    expect(errorOf('c')).toBe('Please enter Kinds');
  });
});

describe('cascaders', () => {
  const tree: FieldOption[] = [
    { id: 'r1', name: 'Civil', children: [{ id: 'c1', name: 'Contract dispute' }, { id: 'c2', name: 'Tort', disabled: true }] },
    { id: 'r2', name: 'Criminal', disabled: true, children: [{ id: 'c3', name: 'Fraud' }] },
  ];

  it.each(['cascader', 'caseType'] as const)('%s chooses level by level; disabled nodes cannot be chosen', async (type) => {
    const { lastValues } = renderForm({ fields: [field({ id: 'k', name: 'Case', type, options: tree })] });
    const root = screen.getByLabelText('Case');
    expect(within(root).getByRole<HTMLOptionElement>('option', { name: 'Criminal' }).disabled).toBe(true);
    await userEvent.selectOptions(root, 'r1');
    expect(lastValues()).toEqual({ k: 'r1' });
    const selects = within(screen.getByTestId('field-k')).getAllByRole('combobox');
    expect(selects).toHaveLength(2);
    expect(within(selects[1]!).getByRole<HTMLOptionElement>('option', { name: 'Tort' }).disabled).toBe(true);
    await userEvent.selectOptions(selects[1]!, 'c1');
    expect(lastValues()).toEqual({ k: 'c1' });
    await userEvent.selectOptions(within(screen.getByTestId('field-k')).getAllByRole('combobox')[1]!, '');
    expect(lastValues()).toEqual({ k: 'r1' });
  });

  it('contract types come from the catalogue, with their disabled groups', async () => {
    const services = fakeServices({
      catalogue: {
        ...emptyCatalogue,
        contractTypes: [
          { id: 'sales', name: 'Sales', parentId: null, disabled: false },
          { id: 'goods', name: 'Goods', parentId: 'sales', disabled: false },
          { id: 'old', name: 'Old', parentId: null, disabled: true },
        ],
      },
    });
    const { lastValues } = renderForm({ fields: [field({ id: 't', name: 'Type', type: 'contractType' })], services });
    expect(within(screen.getByLabelText('Type')).getByRole<HTMLOptionElement>('option', { name: 'Old' }).disabled).toBe(true);
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'sales');
    await userEvent.selectOptions(within(screen.getByTestId('field-t')).getAllByRole('combobox')[1]!, 'goods');
    expect(lastValues()).toEqual({ t: 'goods' });
  });
});

describe('dynamic select', () => {
  const dynamic = field({ id: 'd', name: 'Project', type: 'select', privateConfig: { dynamicConfig: { isDynamicField: true } } });
  const page = (from: number, count: number) => ({ list: Array.from({ length: 2 }, (_, i) => ({ id: String(from + i), name: `Option ${from + i}` })), count });

  it('loads the first page when focused and appends the next pages', async () => {
    const cachedRead = vi.fn((_endpoint: string, request: { query?: Record<string, unknown> }) =>
      Promise.resolve({ value: page(request.query!.pageNum === 1 ? 1 : 3, 4), asOf: '2026-11-28T08:00:00.000Z', offline: false }),
    );
    const { lastValues } = renderForm({ fields: [dynamic], services: fakeServices({ cachedRead: cachedRead as never }) });
    await userEvent.click(screen.getByLabelText('Project'));
    await waitFor(() => expect(within(screen.getByLabelText('Project')).getAllByRole('option')).toHaveLength(3));
    expect(cachedRead).toHaveBeenCalledWith('dynamicSelect', { params: { fieldId: 'd' }, query: { pageNum: 1, pageSize: 20 } });
    expect(screen.queryByTestId('options-as-of-d')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(screen.getByLabelText('Project')).getAllByRole('option')).toHaveLength(5));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Project'), '4');
    expect(lastValues()).toEqual({ d: { id: '4', name: 'Option 4' } });
  });

  it('offers the options read before offline, as of when they were read', async () => {
    const cachedRead = vi.fn(() => Promise.resolve({ value: page(1, 2), asOf: '2026-11-20T08:00:00.000Z', offline: true }));
    renderForm({ fields: [dynamic], services: fakeServices({ cachedRead: cachedRead as never }) });
    await userEvent.click(screen.getByLabelText('Project'));
    await waitFor(() => expect(within(screen.getByLabelText('Project')).getAllByRole('option')).toHaveLength(3));
    expect(screen.getByTestId('options-as-of-d').textContent).toMatch(/^Offline: as last read on .*2026/);
  });

  it('says why when the server cannot be reached and the options were never read', async () => {
    const cachedRead = vi.fn(() => Promise.reject({ code: 'server_unreachable', message: 'offline' }));
    renderForm({ fields: [dynamic], services: fakeServices({ cachedRead }) });
    await userEvent.click(screen.getByLabelText('Project'));
    expect((await screen.findByTestId('options-error-d')).textContent).toBe(
      'The contract server cannot be reached. Check the address, or work offline after a first sign-in.',
    );
  });
});

describe('bank account', () => {
  it('keeps letters, digits, hyphens, dashes and underscores, up to 24', async () => {
    const { lastValues } = renderForm({ fields: [field({ id: 'b', name: 'Account', type: 'bankAccount' })] });
    await userEvent.type(screen.getByLabelText('Account'), 'ab#12 -_–x');
    expect(lastValues()).toEqual({ b: 'ab12-_–x' });
    expect(screen.getByLabelText('Account')).toHaveProperty('maxLength', 24);
  });

  it("fewer than 9 characters: 'Please enter 9 to 24 characters' after blur", async () => {
    renderForm({ fields: [field({ id: 'b', name: 'Account', type: 'bankAccount' })] });
    await userEvent.type(screen.getByLabelText('Account'), '12345');
    expect(errorOf('b')).toBeNull();
    fireEvent.blur(screen.getByLabelText('Account'));
    expect(errorOf('b')).toBe('Please enter 9 to 24 characters');
  });

  it("a kept account with other characters fails with the characters message", async () => {
    const { ref } = renderForm({ fields: [field({ id: 'b', type: 'bankAccount' })], initialValues: { b: '1234 5678 9' } });
    await submit(ref);
    expect(errorOf('b')).toBe('Only letters, digits, hyphens, dashes and underscores are allowed');
  });
});
