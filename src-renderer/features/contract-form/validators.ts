import { createContext, useContext, useEffect, useRef } from 'react';
import type { FormIssue } from '../../../src-shared/form/messages';

/**
 * An extra validator of one field, run by the engine with the field rules of
 * src-shared/form/validation on submit (and for the field's own message after its blur).
 * It returns the field's issues; each issue's `field` is the field id or `${fieldId}.${part}`
 * (e.g. a clause sub-form's field or a party row), so ignorable keys set aside the whole field.
 */
export type FieldValidator = (values: Readonly<Record<string, unknown>>) => FormIssue[];

export interface ValidatorRegistry {
  /** Adds a validator for the field; the returned function removes it. */
  register(fieldId: string, validator: FieldValidator): () => void;
}

export const ValidatorRegistryContext = createContext<ValidatorRegistry | null>(null);

/**
 * For complex fields (clause sub-forms, party validators): registers `validate` for `fieldId`
 * while the component is mounted, e.g.
 *
 *   useRegisterValidator(field.id, (values) => validateClause(field.id, field.name, values[field.id]));
 *
 * The latest `validate` is always the one run, so it may close over props and state freely.
 * Outside a ContractForm it does nothing.
 */
export function useRegisterValidator(fieldId: string, validate: FieldValidator): void {
  const registry = useContext(ValidatorRegistryContext);
  const latest = useRef(validate);
  useEffect(() => {
    latest.current = validate;
  });
  useEffect(() => registry?.register(fieldId, (values) => latest.current(values)), [registry, fieldId]);
}

/** The validators registered per field, kept outside React state: registering re-renders nothing. */
export function createValidatorRegistry(): ValidatorRegistry & { issues(values: Readonly<Record<string, unknown>>, fieldIds?: ReadonlySet<string>): FormIssue[] } {
  const byField = new Map<string, Set<FieldValidator>>();
  return {
    register(fieldId, validator) {
      const set = byField.get(fieldId) ?? new Set<FieldValidator>();
      set.add(validator);
      byField.set(fieldId, set);
      return () => {
        set.delete(validator);
        if (set.size === 0) byField.delete(fieldId);
      };
    },
    issues(values, fieldIds) {
      return [...byField].filter(([id]) => !fieldIds || fieldIds.has(id)).flatMap(([, set]) => [...set].flatMap((validate) => validate(values)));
    },
  };
}
