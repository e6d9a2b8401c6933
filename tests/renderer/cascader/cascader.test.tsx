// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaseTypeNode } from '../../../src-shared/domain/ledger';
import { caseTypeOptions, choiceState, pathLabel, toggleChoice } from '../../../src-shared/rules/cascader';
import { Cascader } from '../../../src-renderer/features/cascader/Cascader';
import { i18n, initI18n } from '../../../src-renderer/i18n/i18n';

// The cascader (spec 2 and 3): single and multiple choice of leaves, preview, and disabled case
// types (state 2) that cannot be chosen, nor anything under them.

initI18n('en');
afterEach(cleanup);

const node = (id: string, name: string, children: CaseTypeNode[] = [], state = 1): CaseTypeNode => ({ id, name, state, children, templateList: [] });
const tree = caseTypeOptions([
  node('civil', 'Civil', [node('contract', 'Contract dispute'), node('tort', 'Tort'), node('labour', 'Labour', [], 2)]),
  node('ip', 'Intellectual property', [node('trademark', 'Trademark'), node('patent', 'Patent')], 2),
  node('admin', 'Administrative'),
]);
const civil = tree[0]!;
const ip = tree[1]!;

describe('cascader rules', () => {
  it('disables case types in state 2 and reads paths', () => {
    expect(civil.children!.map((o) => o.disabled)).toEqual([false, false, true]);
    expect(ip.disabled).toBe(true);
    expect(pathLabel(tree, 'tort')).toBe('Civil / Tort');
    expect(pathLabel(tree, 'missing')).toBe('');
  });

  it('toggles a leaf, or all choosable leaves under a node, never a disabled one', () => {
    expect(toggleChoice([], civil)).toEqual(['contract', 'tort']);
    expect(toggleChoice(['contract', 'tort', 'admin'], civil)).toEqual(['admin']);
    expect(toggleChoice(['tort'], civil)).toEqual(['tort', 'contract']);
    expect(toggleChoice(['admin'], ip)).toEqual(['admin']);
    expect(toggleChoice(['admin'], tree[2]!)).toEqual([]);
    expect(choiceState(['tort'], civil)).toBe('some');
    expect(choiceState(['tort', 'contract'], civil)).toBe('all');
    expect(choiceState([], civil)).toBe('none');
  });
});

function Single({ initial = null }: { initial?: string | null }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <I18nextProvider i18n={i18n}>
      <Cascader testId="case" options={tree} value={value} onChange={setValue} />
      <output data-testid="value">{String(value)}</output>
    </I18nextProvider>
  );
}

function Multiple() {
  const [value, setValue] = useState<string[]>([]);
  return (
    <I18nextProvider i18n={i18n}>
      <Cascader testId="case" multiple options={tree} value={value} onChange={setValue} />
      <output data-testid="value">{value.join(',')}</output>
    </I18nextProvider>
  );
}

const option = (name: string) => screen.getAllByTestId('case-option').find((el) => el.textContent?.includes(name))!;

describe('Cascader', () => {
  it('single: opens a column per level, chooses a leaf and shows its path', async () => {
    const user = userEvent.setup();
    render(<Single />);
    expect(screen.getByTestId('case-target').textContent).toBe('Please select');
    await user.click(screen.getByTestId('case-target'));
    await user.click(option('Civil'));
    await user.click(option('Tort'));
    expect(screen.getByTestId('value').textContent).toBe('tort');
    expect(screen.getByTestId('case-target').textContent).toBe('Civil / Tort');
    await user.click(screen.getByTestId('case-clear'));
    expect(screen.getByTestId('value').textContent).toBe('null');
  });

  it('single: a disabled case type, or one under a disabled parent, cannot be chosen', async () => {
    const user = userEvent.setup();
    render(<Single />);
    await user.click(screen.getByTestId('case-target'));
    await user.click(option('Civil'));
    await user.click(option('Labour'));
    await user.click(option('Intellectual property'));
    await user.click(option('Patent'));
    expect(screen.getByTestId('value').textContent).toBe('null');
    expect(option('Patent').closest('[data-disabled]')).not.toBeNull();
  });

  it('multiple: checks leaves and whole nodes, shows tags that remove', async () => {
    const user = userEvent.setup();
    render(<Multiple />);
    await user.click(screen.getByTestId('case-target'));
    await user.click(option('Administrative'));
    await user.click(option('Civil'));
    await user.click(option('Tort'));
    expect(screen.getByTestId('value').textContent).toBe('admin,tort');
    await user.click(option('Civil').querySelector('input[type=checkbox]')!);
    expect(screen.getByTestId('value').textContent).toBe('admin,tort,contract');
    expect(screen.getAllByTestId('case-tag').map((tag) => tag.textContent)).toEqual(['Administrative', 'Tort', 'Contract dispute']);
    await user.click(screen.getAllByTestId('case-tag')[0]!.querySelector('button')!);
    expect(screen.getByTestId('value').textContent).toBe('tort,contract');
  });

  it('preview: the chosen paths as text, nothing to open', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <Cascader testId="case" preview multiple options={tree} value={['tort', 'admin']} onChange={() => undefined} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('case').textContent).toBe('Civil / Tort; Administrative');
    expect(screen.queryByTestId('case-target')).toBeNull();
  });
});
