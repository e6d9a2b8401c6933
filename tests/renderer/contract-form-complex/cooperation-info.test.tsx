// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CooperationInfoTable } from '../../../src-renderer/features/contract-form/fields/complex/cooperation/CooperationInfoTable';
import type { CooperativeInfoRow } from '../../../src-shared/form/performance-sheet';
import './support';

const row = (i: number): CooperativeInfoRow => ({
  contractID: `c${i}`,
  updateTime: '2026-03-04T06:05:00Z',
  state: 'approved',
  amount: { amount: 123456789 + i, unit: 'CNY' },
  operatorList: ['Wang Wei', 'Li Na'],
  remark: `remark ${i}`,
});
const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i));
const bodyRows = () => screen.getAllByRole('row').slice(1);
const height = () => screen.getByTestId('cooperation-info-scroll').style.height;

afterEach(cleanup);

describe('cooperation information table', () => {
  it('shows the first 2 rows and no action column in preview', () => {
    render(<CooperationInfoTable rows={rows(4)} mode="preview" openRoute={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Cooperation information' })).toBeTruthy();
    expect(bodyRows()).toHaveLength(2);
    expect(screen.queryByRole('columnheader', { name: 'actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'View' })).toBeNull();
    expect(height()).toBe('200px');
  });

  it("shows every row with a 'view' action to /myContract/detail otherwise", async () => {
    const openRoute = vi.fn();
    render(<CooperationInfoTable rows={rows(4)} mode="edit" extraColumns={[{ key: 'remark', name: 'remark' }]} openRoute={openRoute} />);
    expect(bodyRows()).toHaveLength(4);
    expect(screen.getByText('remark 3')).toBeTruthy();
    await userEvent.click(screen.getAllByRole('button', { name: 'View' })[1]!);
    expect(openRoute).toHaveBeenCalledWith('/myContract/detail?contractId=c1');
  });

  it('shows the amount divided by 100, formatted, with its unit, and the operators', () => {
    render(<CooperationInfoTable rows={rows(1)} mode="edit" openRoute={vi.fn()} />);
    expect(screen.getByText('1,234,567.89 CNY')).toBeTruthy();
    expect(screen.getByText('Wang Wei, Li Na')).toBeTruthy();
  });

  it("says 'No data' when there are no rows", () => {
    render(<CooperationInfoTable rows={[]} mode="edit" openRoute={vi.fn()} />);
    expect(bodyRows().map((r) => r.textContent)).toEqual(['No data']);
  });

  it.each([
    [0, '100px'],
    [1, '100px'],
    [2, '200px'],
    [5, '200px'],
    [6, '300px'],
  ])('is %i rows → %s high', (count, expected) => {
    render(<CooperationInfoTable rows={rows(count)} mode="disabled" openRoute={vi.fn()} />);
    expect(height()).toBe(expected);
  });
});
