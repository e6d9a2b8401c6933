import { useState } from 'react';
import { Button, Callout, HTMLSelect, HTMLTable, NumericInput, Switch } from '@blueprintjs/core';
import type { SerializedError } from '@reduxjs/toolkit';
import { useTranslation } from 'react-i18next';
import { saveNumberingRulesSchema } from '../../../src-shared/api/numbering';
import { ResetCycle, RuleScope } from '../../../src-shared/domain/enums';
import { numberingRuleFormSchema, type AbbrSetting, type NumberingKind, type NumberingRuleForm, type NumberingRuleRow, type PreviewRule } from '../../../src-shared/domain/numbering';
import type { AppError } from '../../../src-shared/errors';
import { nextNumberPreview, prefixFor } from '../../../src-shared/rules/numbering-preview';
import { showNotice } from '../../app/toaster';
import { failureText } from '../manage/issues';
import { useServerWrite } from '../manage/serverData';
import { numberingEndpoints } from './numberingEndpoints';
import type { ScopeTarget } from './useScopeTargets';

type RuleDraft = NumberingRuleForm & { key: number };

const ruleScopes = Object.values(RuleScope);

/** The form's own check, in the UI language: which field of a rule is out of range. */
const fieldProblems = { digits: 'digits', startNum: 'serial', reStartNum: 'serial', scopeId: 'target' } as const;
const resetCycles = Object.values(ResetCycle);

/** The spec's defaults (spec 3): digits 1, start 1, restart 1, natural, never reset. */
const defaultRule = (key: number, scopeId: string | null = null): RuleDraft => ({ ...numberingRuleFormSchema.parse({ scopeId }), key });

/** The stored rules of a scope as the form edits them; the default scope always has its one rule. */
function draftsOf(rules: readonly NumberingRuleRow[], scope: RuleScope): RuleDraft[] {
  const stored = rules
    .filter((rule) => rule.ruleScope === scope)
    .map((rule, key) => ({
      key,
      scopeId: rule.scopeId,
      digits: rule.digits,
      startNum: rule.startNumber,
      reStartNum: rule.resetStartNumber,
      isNatural: rule.isNatural,
      resetCycle: rule.resetCycle,
    }));
  return stored.length > 0 || scope !== RuleScope.Default ? stored : [defaultRule(0)];
}

interface RulesEditorProps {
  kind: NumberingKind;
  stored: { ruleScope: RuleScope | null; list: NumberingRuleRow[] };
  abbrSettings: readonly AbbrSetting[];
  targetsOf(scope: RuleScope): ScopeTarget[];
  /** The saved rules' previews: a saved rule counts on from its counters, as the allocator does. */
  saved: readonly PreviewRule[];
  /** Administrators save; everyone else reads. */
  canSave: boolean;
}

/** The rule scope in use and one rule per contract type or department under it, each with the next number it gives. */
export function RulesEditor({ kind, stored, abbrSettings, targetsOf, saved, canSave }: RulesEditorProps) {
  const { t } = useTranslation();
  const write = useServerWrite();
  const [scope, setScope] = useState<RuleScope>(stored.ruleScope ?? RuleScope.Default);
  const [rules, setRules] = useState<RuleDraft[]>(() => draftsOf(stored.list, stored.ruleScope ?? RuleScope.Default));
  const [nextKey, setNextKey] = useState(1000);
  const [failure, setFailure] = useState<string | null>(null);
  const now = new Date();
  const targets = targetsOf(scope);
  const countersOf = (scopeId: string | null) => saved.find((rule) => rule.conditionType === scope && (rule.values[0] ?? null) === scopeId)?.counters;

  function change(key: number, patch: Partial<NumberingRuleForm>) {
    setRules((current) => current.map((rule) => (rule.key === key ? { ...rule, ...patch } : rule)));
  }

  function changeScope(next: RuleScope) {
    setScope(next);
    setRules(draftsOf(stored.list, next));
  }

  function addRule() {
    const free = targets.find((target) => !rules.some((rule) => rule.scopeId === target.id));
    setRules((current) => [...current, defaultRule(nextKey, free?.id ?? null)]);
    setNextKey((key) => key + 1);
  }

  async function save() {
    setFailure(null);
    if (new Set(rules.map((rule) => rule.scopeId)).size !== rules.length) {
      setFailure(t('manage.numbering.duplicateTarget'));
      return;
    }
    const checked = saveNumberingRulesSchema.safeParse({ ruleScope: scope, rules: rules.map(({ key: _key, ...rule }) => rule) });
    if (!checked.success) {
      const field = checked.error.issues[0]?.path[2];
      setFailure(t(`manage.numbering.invalid.${typeof field === 'string' && field in fieldProblems ? fieldProblems[field as keyof typeof fieldProblems] : 'addOneRule'}`));
      return;
    }
    try {
      await write(numberingEndpoints[kind].saveRules, { body: checked.data });
      showNotice(t('manage.done'));
    } catch (cause) {
      setFailure(failureText(t, cause as AppError | SerializedError));
    }
  }

  return (
    <div className="numbering__rules" data-testid={`rules-${kind}`}>
      <div className="manage__header">
        <label className="numbering__scope">
          {t('manage.numbering.ruleScopeLabel')}
          <HTMLSelect
            value={scope}
            disabled={!canSave}
            data-testid={`rule-scope-${kind}`}
            options={ruleScopes.map((value) => ({ value, label: t('manage.numbering.ruleScope', { returnObjects: true })[value] }))}
            onChange={(event) => changeScope(Number(event.currentTarget.value) as RuleScope)}
          />
        </label>
        {scope !== RuleScope.Default && canSave && <Button icon="add" text={t('manage.numbering.addRule')} onClick={addRule} disabled={rules.length >= targets.length} />}
      </div>
      {failure && (
        <Callout intent="danger" icon="error" role="alert" className="manage__failure" data-testid={`rules-failure-${kind}`}>
          {failure}
        </Callout>
      )}
      <div className="manage__table">
        <HTMLTable compact>
          <thead>
            <tr>
              {scope !== RuleScope.Default && <th>{t(scope === RuleScope.ContractType ? 'manage.numbering.contractType' : 'manage.numbering.department')}</th>}
              <th>{t('manage.numbering.digits')}</th>
              <th>{t('manage.numbering.startNum')}</th>
              <th>{t('manage.numbering.reStartNum')}</th>
              <th>{t('manage.numbering.isNatural')}</th>
              <th>{t('manage.numbering.resetCycle')}</th>
              <th>{t('manage.numbering.nextNumber')}</th>
              {scope !== RuleScope.Default && canSave && <th>{t('manage.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.key} data-testid="numbering-rule">
                {scope !== RuleScope.Default && (
                  <td>
                    <HTMLSelect
                      value={rule.scopeId ?? ''}
                      disabled={!canSave}
                      aria-label={t('manage.numbering.target')}
                      options={targets.map((target) => ({ value: target.id, label: target.name }))}
                      onChange={(event) => change(rule.key, { scopeId: event.currentTarget.value })}
                    />
                  </td>
                )}
                <td>
                  <NumericInput
                    className="numbering__number"
                    aria-label={t('manage.numbering.digits')}
                    value={rule.digits}
                    min={1}
                    max={9}
                    disabled={!canSave}
                    onValueChange={(value) => change(rule.key, { digits: value })}
                  />
                </td>
                <td>
                  <NumericInput
                    className="numbering__number"
                    aria-label={t('manage.numbering.startNum')}
                    value={rule.startNum}
                    min={0}
                    disabled={!canSave}
                    onValueChange={(value) => change(rule.key, { startNum: value })}
                  />
                </td>
                <td>
                  <NumericInput
                    className="numbering__number"
                    aria-label={t('manage.numbering.reStartNum')}
                    value={rule.reStartNum}
                    min={0}
                    disabled={!canSave}
                    onValueChange={(value) => change(rule.key, { reStartNum: value })}
                  />
                </td>
                <td>
                  <Switch
                    checked={rule.isNatural}
                    disabled={!canSave}
                    aria-label={t('manage.numbering.isNatural')}
                    onChange={(event) => change(rule.key, { isNatural: event.currentTarget.checked })}
                  />
                </td>
                <td>
                  <HTMLSelect
                    value={rule.resetCycle}
                    disabled={!canSave}
                    aria-label={t('manage.numbering.resetCycle')}
                    options={resetCycles.map((value) => ({ value, label: t('resetCycle', { returnObjects: true })[value] }))}
                    onChange={(event) => change(rule.key, { resetCycle: Number(event.currentTarget.value) as ResetCycle })}
                  />
                </td>
                <td className="numbering__preview" data-testid="rule-preview">
                  {Number.isFinite(rule.startNum) ? nextNumberPreview(rule, prefixFor(abbrSettings, scope, rule.scopeId), now, countersOf(rule.scopeId)) : '--'}
                </td>
                {scope !== RuleScope.Default && canSave && (
                  <td>
                    <Button
                      variant="minimal"
                      icon="trash"
                      aria-label={t('manage.delete')}
                      onClick={() => setRules((current) => current.filter((other) => other.key !== rule.key))}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {canSave && (
        <Button intent="primary" icon="floppy-disk" text={t('manage.numbering.saveRules')} onClick={() => void save()} data-testid={`save-rules-${kind}`} className="numbering__save" />
      )}
    </div>
  );
}
