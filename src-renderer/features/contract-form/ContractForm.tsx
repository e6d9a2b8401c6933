import { Callout, Intent } from '@blueprintjs/core';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { buildCalculationGraph, calculationGroup, initialCalculation, recalculate, type Recalculation } from '../../../src-shared/form/calculation';
import { fieldMode, shouldSubmitOnEnter } from '../../../src-shared/form/editability';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import type { FormField } from '../../../src-shared/form/field-config';
import type { FormIssue } from '../../../src-shared/form/messages';
import { FormValidation, FormValidationError, validateField } from '../../../src-shared/form/validation';
import { FieldRow } from './FieldRow';
import { ContractFormContext } from './formContext';
import { fieldComponents } from './fields/registry';
import { fieldRowId } from './ids';
import { formMessageText } from './messageText';
import type { ContractFormHandle, ContractFormProps } from './types';
import { createValidatorRegistry, ValidatorRegistryContext } from './validators';

type Values = Record<string, unknown>;

/** The spec's scroll-to-field delay after a failed submit (spec 9). */
export const scrollToFieldDelayMs = 50;

const noIssues: readonly FormIssue[] = [];
const noClauses: readonly Clause[] = [];

/** Two values of a field are the same when they serialise alike (an emptied field and a missing one too). */
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The issue's field: `clause_1.party.0` belongs to field `clause_1`. */
const issueFieldId = (issue: FormIssue) => issue.field.split('.')[0]!;

/** Division-by-zero messages of the fields a recalculation touched, the others' kept. */
function mergeCalculationIssues(previous: readonly FormIssue[], result: Recalculation): readonly FormIssue[] {
  const updated = new Set(result.updated);
  const kept = previous.filter((issue) => !updated.has(issueFieldId(issue)));
  if (kept.length === previous.length && result.issues.length === 0) return previous;
  return [...kept, ...result.issues];
}

/**
 * The generic dynamic form (spec 2–5): lays out the fields by type in the mode editability
 * allows, runs calculated fields, validates on submit and on a field's blur, and submits on
 * Enter only when asked. Values are controlled by the screen (values / onValuesChange).
 */
export const ContractForm = forwardRef<ContractFormHandle, ContractFormProps>(function ContractForm(props, ref) {
  const { fields, values, mode, alteration = false, submitOnEnter = false, ignoredKeys, clauses = noClauses, templateApproval = false, refused } = props;
  const { t } = useTranslation();
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [calculationIssues, setCalculationIssues] = useState<readonly FormIssue[]>(noIssues);
  const [registry] = useState(createValidatorRegistry);

  // Callbacks handed to the rows stay stable across keystrokes; they read the latest props here.
  const latest = useRef(props);
  const currentValues = useRef<Values>(values);
  useLayoutEffect(() => {
    latest.current = props;
    currentValues.current = props.values;
  });

  const graphResult = useMemo(() => buildCalculationGraph(fields), [fields]);
  const graph = graphResult.ok ? graphResult.graph : null;
  const calculatedIds = useMemo(() => new Set(fields.filter((f) => calculationGroup(f)).map((f) => f.id)), [fields]);

  const emit = useCallback((next: Values) => {
    currentValues.current = next;
    latest.current.onValuesChange(next);
  }, []);

  const onChange = useCallback(
    (fieldId: string, value: unknown) => {
      let next: Values = { ...currentValues.current, [fieldId]: value };
      if (graph) {
        const result = recalculate(graph, next, fieldId);
        next = result.values;
        setCalculationIssues((previous) => mergeCalculationIssues(previous, result));
      }
      emit(next);
    },
    [graph, emit],
  );

  const changeValues = useCallback(
    (patch: Readonly<Record<string, unknown>>) => {
      if (Object.keys(patch).length === 0) return;
      let next: Values = { ...currentValues.current, ...patch };
      if (graph) {
        for (const fieldId of Object.keys(patch)) next = recalculate(graph, next, fieldId).values;
      }
      emit(next);
    },
    [graph, emit],
  );

  const formContext = useMemo(
    () => ({ mode, alteration, clauses, templateApproval, fieldComponents, fields, changeValues }),
    [mode, alteration, clauses, templateApproval, fields, changeValues],
  );

  const onBlur = useCallback((fieldId: string) => {
    setTouched((previous) => (previous.has(fieldId) ? previous : new Set(previous).add(fieldId)));
  }, []);

  // Calculated fields made only of constants have their value from the start (spec 4).
  const applyInitialCalculation = useCallback(() => {
    if (!graph) return;
    const result = initialCalculation(graph, currentValues.current);
    setCalculationIssues((previous) => mergeCalculationIssues(previous, result));
    // A contract loaded with its calculated values already in place is left as it is.
    const changed = result.updated.some((id) => JSON.stringify(result.values[id]) !== JSON.stringify(currentValues.current[id]));
    if (changed) emit(result.values);
  }, [graph, emit]);
  useEffect(applyInitialCalculation, [applyInitialCalculation]);

  /** Every issue of the current values: field rules, registered validators, minus ignored keys. */
  const collectIssues = useCallback((): FormIssue[] => {
    const { fields: currentFields, ignoredKeys: ignored = [] } = latest.current;
    const validation = new FormValidation();
    validation.ignore(ignored);
    const ignoredSet = new Set(validation.ignoredKeys);
    const fieldIssues = validation.issues(currentFields, currentValues.current);
    const registered = registry.issues(currentValues.current).filter((issue) => !ignoredSet.has(issue.field) && !ignoredSet.has(issueFieldId(issue)));
    return [...fieldIssues, ...registered];
  }, [registry]);

  const submit = useCallback(async (): Promise<Values> => {
    setSubmitted(true);
    const issues = collectIssues();
    if (issues.length > 0) {
      const error = new FormValidationError(issues);
      latest.current.onValidateError?.(error.event);
      const first = issues[0] ? document.getElementById(fieldRowId(issueFieldId(issues[0]))) : null;
      if (first) setTimeout(() => first.scrollIntoView?.({ block: 'center', behavior: 'smooth' }), scrollToFieldDelayMs);
      throw error;
    }
    const submittedValues = currentValues.current;
    latest.current.onSubmit?.(submittedValues);
    return submittedValues;
  }, [collectIssues]);

  useImperativeHandle(ref, () => ({ submit, issues: collectIssues }), [submit, collectIssues]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      // Enter in a single-line input only: a textarea takes a new line, a button or select its own action.
      if (!(event.target instanceof HTMLInputElement) || event.nativeEvent.isComposing) return;
      if (!shouldSubmitOnEnter(event.key, submitOnEnter)) return;
      event.preventDefault();
      submit().catch((error: unknown) => {
        // A failed validation is reported through onValidateError and the fields' messages.
        if (!(error instanceof FormValidationError)) throw error;
      });
    },
    [submitOnEnter, submit],
  );

  // Messages show after a submit, or for a field once it has lost focus.
  const errors = useMemo(() => {
    const shown = new Map<string, string>();
    const ignored = new Set(ignoredKeys ?? []);
    const visible = fields.filter((f) => (submitted || touched.has(f.id)) && !ignored.has(f.id));
    const visibleIds = new Set(visible.map((f) => f.id));
    const issues = [
      ...calculationIssues,
      ...(graphResult.ok ? graphResult.issues : []),
      ...visible.flatMap((f) => validateField(f, values[f.id])),
      ...registry.issues(values, visibleIds),
    ];
    for (const issue of issues) {
      const id = issueFieldId(issue);
      if (!shown.has(id) && !ignored.has(issue.field)) shown.set(id, formMessageText(t, issue.message));
    }
    // The server's reason stays on a field until the user changes the value it refused.
    for (const [id, refusal] of Object.entries(refused ?? {})) {
      if (!shown.has(id) && sameValue(values[id], refusal.value)) shown.set(id, refusal.message);
    }
    return shown;
  }, [fields, values, submitted, touched, ignoredKeys, calculationIssues, graphResult, registry, refused, t]);

  return (
    <ValidatorRegistryContext.Provider value={registry}>
      <ContractFormContext.Provider value={formContext}>
        <div role="form" className="contract-form" data-testid="contract-form" onKeyDown={onKeyDown}>
          {!graphResult.ok && (
            <Callout intent={Intent.DANGER} data-testid="contract-form-calculation-cycle">
              {formMessageText(t, graphResult.message)}
            </Callout>
          )}
          {fields.map((field: FormField) => (
            <FieldRow
              key={field.id}
              field={field}
              value={values[field.id]}
              mode={fieldMode(field, mode, { alteration })}
              error={errors.get(field.id) ?? null}
              calculated={calculatedIds.has(field.id)}
              values={values}
              onChange={onChange}
              onBlur={onBlur}
            />
          ))}
        </div>
      </ContractFormContext.Provider>
    </ValidatorRegistryContext.Provider>
  );
});
