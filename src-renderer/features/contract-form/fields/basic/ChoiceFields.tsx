import { Button, Checkbox, Radio, RadioGroup, Switch, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FieldOption } from '../../../../../src-shared/form/field-config';
import type { FieldProps } from '../../types';
import { DynamicSelectField, isDynamicSelect } from './DynamicSelectField';
import { asIds, asText, fieldInputId, OptionSelect, PreviewText, useOptionNames, usePlaceholder } from './shared';

// Choices among the field's options: select and radio hold one option id, multiselect and
// checkbox a list of ids; bool is a switch.

const optionsOf = (props: FieldProps<unknown>): readonly FieldOption[] => props.field.options ?? [];

function StaticSelect(props: FieldProps<string>) {
  const placeholder = usePlaceholder(props.field, 'pleaseSelect');
  const names = useOptionNames();
  const id = asText(props.value);
  if (props.mode === 'preview') return <PreviewText field={props.field} text={id ? names(optionsOf(props), [id]) : ''} />;
  return <OptionSelect id={fieldInputId(props.field.id)} options={optionsOf(props)} value={id} placeholder={placeholder} props={props as FieldProps<never>} onSelect={props.onChange} />;
}

/** One option; a dynamic select (privateConfig.dynamicConfig.isDynamicField) loads its options in pages. */
export function SelectField(props: FieldProps<never>) {
  return isDynamicSelect(props.field) ? <DynamicSelectField {...props} /> : <StaticSelect {...props} />;
}

/** Several options: the chosen ones as removable tags, the others in a select to add from. */
export function MultiselectField(props: FieldProps<string[]>) {
  const { t } = useTranslation();
  const names = useOptionNames();
  const options = optionsOf(props);
  const chosen = asIds(props.value);
  if (props.mode === 'preview') return <PreviewText field={props.field} text={names(options, chosen)} />;
  const set = (ids: string[]) => props.onChange(ids.length > 0 ? ids : undefined);
  const editable = props.mode === 'edit';
  return (
    <div className="contract-form__multiselect">
      {chosen.map((id) => {
        const name = names(options, [id]);
        return (
          <Tag key={id} minimal>
            {name}
            {editable && <Button variant="minimal" size="small" icon="cross" aria-label={t('contractForm.remove', { name })} onClick={() => set(chosen.filter((c) => c !== id))} />}
          </Tag>
        );
      })}
      <OptionSelect
        id={fieldInputId(props.field.id)}
        options={options.filter((o) => !chosen.includes(o.id))}
        value=""
        placeholder={t('contractForm.add')}
        props={props as FieldProps<never>}
        onSelect={(id) => id && set([...chosen, id])}
      />
    </div>
  );
}

export function RadioField(props: FieldProps<string>) {
  const names = useOptionNames();
  const options = optionsOf(props);
  const id = asText(props.value);
  if (props.mode === 'preview') return <PreviewText field={props.field} text={id ? names(options, [id]) : ''} />;
  return (
    <RadioGroup
      name={fieldInputId(props.field.id)}
      selectedValue={id}
      disabled={props.mode === 'disabled'}
      inline
      onChange={(event) => {
        props.onChange(event.currentTarget.value);
        props.onBlur?.();
      }}
    >
      {options.map((option) => (
        <Radio key={option.id} value={option.id} label={option.name} disabled={option.disabled} />
      ))}
    </RadioGroup>
  );
}

export function CheckboxField(props: FieldProps<string[]>) {
  const names = useOptionNames();
  const options = optionsOf(props);
  const chosen = asIds(props.value);
  if (props.mode === 'preview') return <PreviewText field={props.field} text={names(options, chosen)} />;
  const toggle = (id: string, checked: boolean) => {
    const next = checked ? [...chosen, id] : chosen.filter((c) => c !== id);
    props.onChange(next.length > 0 ? next : undefined);
    props.onBlur?.();
  };
  return (
    <div id={fieldInputId(props.field.id)}>
      {options.map((option) => (
        <Checkbox
          key={option.id}
          inline
          label={option.name}
          checked={chosen.includes(option.id)}
          disabled={props.mode === 'disabled' || option.disabled}
          onChange={(event) => toggle(option.id, event.currentTarget.checked)}
        />
      ))}
    </div>
  );
}

/** Yes or no, as a switch. */
export function BoolField({ field, value, mode, onChange, onBlur }: FieldProps<boolean>) {
  const { t } = useTranslation();
  if (mode === 'preview') return <PreviewText field={field} text={typeof value === 'boolean' ? t(value ? 'contractForm.yes' : 'contractForm.no') : ''} />;
  return (
    <Switch
      id={fieldInputId(field.id)}
      checked={value === true}
      disabled={mode === 'disabled'}
      label={t(value === true ? 'contractForm.yes' : 'contractForm.no')}
      onChange={(event) => {
        onChange(event.currentTarget.checked);
        onBlur?.();
      }}
    />
  );
}
