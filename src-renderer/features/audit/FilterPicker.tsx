import { useMemo, useState } from 'react';
import { Button, InputGroup, Menu, MenuItem, Popover } from '@blueprintjs/core';

// A filter chosen from a list (the organisation's users, its devices) by a name searched as typed,
// holding the chosen entry's id; "any" clears it. An id no longer listed is shown as it is.

export interface PickerEntry {
  id: string;
  label: string;
  /** Shown after the label, muted (a device's owner). */
  detail?: string;
}

/** Entries shown at once: typing narrows a long list. */
const shownEntries = 50;

interface FilterPickerProps {
  id: string;
  testId: string;
  entries: readonly PickerEntry[];
  value: string;
  onChange(id: string): void;
  anyText: string;
  searchText: string;
  noMatchText: string;
}

export function FilterPicker({ id, testId, entries, value, onChange, anyText, searchText, noMatchText }: FilterPickerProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const matching = useMemo(() => {
    const words = typed.trim().toLocaleLowerCase();
    return entries.filter((entry) => !words || `${entry.label} ${entry.detail ?? ''}`.toLocaleLowerCase().includes(words)).slice(0, shownEntries);
  }, [entries, typed]);
  const chosen = entries.find((entry) => entry.id === value);
  const choose = (next: string) => {
    onChange(next);
    setOpen(false);
    setTyped('');
  };
  return (
    <Popover
      isOpen={open}
      onInteraction={setOpen}
      placement="bottom-start"
      minimal
      fill
      content={
        <div className="audit__picker" data-testid={`${testId}-menu`}>
          <InputGroup autoFocus leftIcon="search" placeholder={searchText} value={typed} onChange={(event) => setTyped(event.currentTarget.value)} data-testid={`${testId}-search`} />
          <Menu>
            <MenuItem text={anyText} active={!value} onClick={() => choose('')} />
            {matching.map((entry) => (
              <MenuItem key={entry.id} text={entry.label} label={entry.detail} active={entry.id === value} onClick={() => choose(entry.id)} data-testid={`${testId}-option`} />
            ))}
            {matching.length === 0 && <MenuItem disabled text={noMatchText} />}
          </Menu>
        </div>
      }
    >
      <Button id={id} fill alignText="start" endIcon="caret-down" text={chosen?.label ?? (value || anyText)} title={chosen?.detail} data-testid={testId} className="audit__picker-button" />
    </Popover>
  );
}
