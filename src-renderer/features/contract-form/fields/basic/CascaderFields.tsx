import { ControlGroup } from '@blueprintjs/core';
import { useMemo } from 'react';
import type { CatalogueContractType } from '../../../../../src-shared/ipc/drafting';
import type { FieldOption } from '../../../../../src-shared/form/field-config';
import { cascaderPath, isSelectableOption } from '../../../../../src-shared/form/options';
import { CaseTypeCascader } from '../../../cascader/CaseTypeCascader';
import { useFormServices } from '../../FormServicesContext';
import type { FieldProps } from '../../types';
import { asText, fieldInputId, OptionSelect, PreviewText, usePlaceholder } from './shared';

// Tree choices (cascader, case type, contract type): one select per level, the value is the id of
// the deepest node chosen. Disabled nodes, and everything under them, cannot be chosen (spec 2).

const pathSeparator = ' / ';

function TreeSelect({ options, ...props }: FieldProps<string> & { options: readonly FieldOption[] }) {
  const placeholder = usePlaceholder(props.field, 'pleaseSelect');
  const id = asText(props.value);
  const path = id ? cascaderPath(options, id) : [];
  if (props.mode === 'preview') return <PreviewText field={props.field} text={path.map((o) => o.name).join(pathSeparator)} />;
  // Level i lists the children of the node chosen at level i − 1; a leaf ends the chain.
  const levels: (readonly FieldOption[])[] = [options, ...path.map((o) => o.children ?? []).filter((children) => children.length > 0)];
  const choose = (level: number, chosen: string | undefined) => {
    const next = chosen ?? path[level - 1]?.id;
    if (next === undefined) props.onChange(undefined);
    else if (isSelectableOption(options, next)) props.onChange(next);
  };
  return (
    <ControlGroup fill>
      {levels.map((levelOptions, level) => (
        <OptionSelect
          key={path[level - 1]?.id ?? 'root'}
          id={level === 0 ? fieldInputId(props.field.id) : undefined}
          options={levelOptions}
          value={path[level]?.id ?? ''}
          placeholder={placeholder}
          props={props as FieldProps<never>}
          onSelect={(chosen) => choose(level, chosen)}
        />
      ))}
    </ControlGroup>
  );
}

/** Cascader: the tree comes with the field's options. */
export function CascaderField(props: FieldProps<string>) {
  return <TreeSelect {...props} options={props.field.options ?? []} />;
}

/**
 * Case type (spec 2 and 3): the organisation's case-type tree from `case_type/list/by_user` (kept for
 * offline use) unless the template brings its own options; one case type, or several when the
 * field is multiple; disabled case types cannot be chosen.
 */
export function CaseTypeField(props: FieldProps<string | string[]>) {
  const placeholder = usePlaceholder(props.field, 'pleaseSelect');
  if (props.field.options?.length) return <CascaderField {...(props as FieldProps<string>)} />;
  const common = { testId: `case-type-${props.field.id}`, id: fieldInputId(props.field.id), placeholder, preview: props.mode === 'preview' };
  return props.field.multiple ? (
    <CaseTypeCascader {...common} multiple value={Array.isArray(props.value) ? props.value : []} onChange={(value) => props.onChange(value.length > 0 ? value : undefined)} />
  ) : (
    <CaseTypeCascader {...common} value={typeof props.value === 'string' ? props.value : null} onChange={(value) => props.onChange(value ?? undefined)} />
  );
}

/** Contract types as a tree, from the catalogue kept for offline drafting. */
export function contractTypeTree(types: readonly CatalogueContractType[]): FieldOption[] {
  const children = new Map<string | null, CatalogueContractType[]>();
  for (const type of types) children.set(type.parentId, [...(children.get(type.parentId) ?? []), type]);
  const build = (parentId: string | null, seen: ReadonlySet<string>): FieldOption[] =>
    (children.get(parentId) ?? [])
      .filter((type) => !seen.has(type.id))
      .map((type) => {
        const below = build(type.id, new Set(seen).add(type.id));
        return { id: type.id, name: type.name, disabled: type.disabled, ...(below.length > 0 ? { children: below } : {}) };
      });
  return build(null, new Set());
}

export function ContractTypeField(props: FieldProps<string>) {
  const { catalogue } = useFormServices();
  const options = useMemo(() => contractTypeTree(catalogue.contractTypes), [catalogue.contractTypes]);
  return <TreeSelect {...props} options={options} />;
}
