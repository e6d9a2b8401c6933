import { useState } from 'react';
import { Button, Checkbox, Menu, MenuItem, NonIdealState, Popover, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FieldOption } from '../../../src-shared/form/field-config';
import { cascaderPath, isSelectableOption } from '../../../src-shared/form/options';
import { choiceState, pathLabel, toggleChoice } from '../../../src-shared/rules/cascader';
import './cascader.css';

// A cascader (spec 2 and 3): one column per level in a popover, single or multiple choice of
// leaves, a preview mode that only shows the chosen paths, and disabled nodes (greyed, with
// everything under them) that cannot be chosen. Keyboard: the items are menu items (Tab, Enter).

interface CommonProps {
  options: readonly FieldOption[];
  /** Shows the chosen paths as text, nothing to change. */
  preview?: boolean;
  disabled?: boolean;
  placeholder?: string;
  testId: string;
  id?: string;
}

export type CascaderProps = CommonProps &
  ({ multiple?: false; value: string | null; onChange(value: string | null): void } | { multiple: true; value: readonly string[]; onChange(value: string[]): void });

/** A cascader's props without its tree, for the cascaders that bring their own (case types, performance tasks). */
export type CascaderChoiceProps = CascaderProps extends infer P ? (P extends unknown ? Omit<P, 'options'> : never) : never;

export function Cascader(props: CascaderProps) {
  const { t } = useTranslation();
  const { options, testId } = props;
  const chosen: readonly string[] = props.multiple ? props.value : props.value === null ? [] : [props.value];
  const [open, setOpen] = useState(false);
  // The nodes whose children are shown, one per column after the first.
  const [expanded, setExpanded] = useState<string[]>([]);
  const labels = chosen.map((id) => pathLabel(options, id)).filter((label) => label !== '');

  if (props.preview) {
    return (
      <span className="cascader-preview" data-testid={testId}>
        {labels.length > 0 ? labels.join('; ') : '--'}
      </span>
    );
  }

  function openAt(next: boolean) {
    // Open on the first chosen value's column, as a user expects to see where they are.
    if (next) setExpanded(chosen[0] ? cascaderPath(options, chosen[0]).slice(0, -1).map((o) => o.id) : []);
    setOpen(next);
  }

  function choose(option: FieldOption, level: number) {
    if (option.children?.length) {
      setExpanded([...expanded.slice(0, level), option.id]);
      return;
    }
    if (!isSelectableOption(options, option.id)) return;
    if (props.multiple) props.onChange(toggleChoice(props.value, option));
    else {
      props.onChange(option.id);
      setOpen(false);
    }
  }

  const columns: (readonly FieldOption[])[] = [options];
  for (const id of expanded) {
    const node = cascaderPath(options, id).at(-1);
    if (node?.children?.length) columns.push(node.children);
  }

  const menu = (
    <div className="cascader-columns" data-testid={`${testId}-menu`}>
      {options.length === 0 ? (
        <NonIdealState className="cascader-empty" description={t('cascader.noOptions')} />
      ) : (
        columns.map((column, level) => (
          <Menu key={level === 0 ? 'root' : expanded[level - 1]} className="cascader-column" role="menu">
            {column.map((option) => {
              const disabled = !isSelectableOption(options, option.id);
              const parent = !!option.children?.length;
              const state = choiceState(chosen, option);
              return (
                <MenuItem
                  key={option.id}
                  data-testid={`${testId}-option`}
                  data-disabled={disabled || undefined}
                  active={expanded[level] === option.id || (!props.multiple && !parent && chosen.includes(option.id))}
                  disabled={disabled && !parent}
                  shouldDismissPopover={false}
                  text={option.name}
                  icon={
                    props.multiple && !disabled ? (
                      <Checkbox
                        className="cascader-check"
                        tabIndex={-1}
                        checked={state === 'all'}
                        indeterminate={state === 'some'}
                        aria-label={option.name}
                        onClick={(event) => event.stopPropagation()}
                        onChange={() => props.onChange(toggleChoice(props.value, option))}
                      />
                    ) : undefined
                  }
                  labelElement={parent ? <span aria-hidden>›</span> : undefined}
                  onClick={() => choose(option, level)}
                />
              );
            })}
          </Menu>
        ))
      )}
    </div>
  );

  const clear = () => (props.multiple ? props.onChange([]) : props.onChange(null));
  return (
    <div className="cascader" data-testid={testId}>
      <Popover isOpen={open} onInteraction={(next) => openAt(next)} placement="bottom-start" content={menu} disabled={props.disabled} minimal>
        <Button
          id={props.id}
          className="cascader-target"
          alignText="start"
          fill
          disabled={props.disabled}
          endIcon="caret-down"
          data-testid={`${testId}-target`}
          text={
            labels.length === 0 ? (
              <span className="cascader-placeholder">{props.placeholder ?? t('cascader.placeholder')}</span>
            ) : props.multiple ? (
              <span className="cascader-tags">
                {chosen.map((id) => (
                  <Tag
                    key={id}
                    minimal
                    data-testid={`${testId}-tag`}
                    onRemove={(event) => {
                      event.stopPropagation();
                      props.onChange(props.value.filter((value) => value !== id));
                    }}
                  >
                    {cascaderPath(options, id).at(-1)?.name ?? id}
                  </Tag>
                ))}
              </span>
            ) : (
              labels[0]
            )
          }
        />
      </Popover>
      {labels.length > 0 && !props.disabled && <Button variant="minimal" size="small" icon="cross" aria-label={t('cascader.clear')} title={t('cascader.clear')} data-testid={`${testId}-clear`} onClick={clear} />}
    </div>
  );
}

