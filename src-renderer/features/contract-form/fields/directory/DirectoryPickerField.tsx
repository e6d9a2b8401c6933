import { Button, Classes, InputGroup, Menu, MenuItem, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useMemo, useRef, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppError } from '../../../../../src-shared/errors';
import type { Directory } from '../../../../../src-shared/ipc/directory';
import {
  departmentEntries,
  directoryValue,
  directoryValueEntries,
  isMultipleDirectoryField,
  searchDirectory,
  userEntries,
  type DirectoryEntry,
  type DirectoryValueEntry,
} from '../../../../../src-shared/form/directory';
import { errorText } from '../../../../i18n/errorText';
import { formatDateTime } from '../../../../i18n/format';
import { useFormServices } from '../../FormServicesContext';
import type { FieldProps } from '../../types';
import { fieldInputId, PreviewText, usePlaceholder } from '../basic/shared';

// people and department: chosen from the organisation's directory (the core's, kept for offline
// use), searched by name as typed; one entry, or several when the field config says `multiple`.

type Loaded = { status: 'loading' } | { status: 'loaded'; directory: Directory } | { status: 'failed'; text: string };

function useDirectory(active: boolean): Loaded {
  const { t } = useTranslation();
  const services = useFormServices();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    if (!active) return;
    let live = true;
    services.directory().then(
      (directory) => live && setLoaded({ status: 'loaded', directory }),
      (failure: unknown) => live && setLoaded({ status: 'failed', text: errorText(t, toAppError(failure)) }),
    );
    return () => {
      live = false;
    };
  }, [active, services, t]);
  return loaded;
}

function DirectoryPicker({ entriesOf, ...props }: FieldProps<unknown> & { entriesOf(directory: Directory): DirectoryEntry[] }) {
  const { field, value, mode, onChange, onBlur } = props;
  const { t, i18n } = useTranslation();
  const placeholder = usePlaceholder(field, 'pleaseSelect');
  const multiple = isMultipleDirectoryField(field);
  const chosen = directoryValueEntries(value);
  const editing = mode === 'edit';
  const loaded = useDirectory(editing);
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  const entries = useMemo(() => (loaded.status === 'loaded' ? entriesOf(loaded.directory) : []), [loaded, entriesOf]);

  if (mode === 'preview') return <PreviewText field={field} text={chosen.map((e) => e.name).join(t('contractForm.listSeparator'))} />;

  const set = (next: DirectoryValueEntry[]) => onChange(directoryValue(next, multiple));
  const choose = (entry: DirectoryEntry) => {
    set(multiple ? [...chosen, { id: entry.id, name: entry.name }] : [{ id: entry.id, name: entry.name }]);
    setTyped('');
    setOpen(multiple);
    // The chosen item leaves the list: focus goes back to the search, so leaving the field still closes it.
    search.current?.focus();
  };
  // Leaving the field is focus going outside it, not from the search to the list.
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setOpen(false);
    onBlur?.();
  };
  const found = searchDirectory(entries, typed, new Set(chosen.flatMap((e) => (e.id ? [e.id] : []))));

  return (
    <div className="directory-picker" data-testid={`directory-${field.id}`} onBlur={editing ? leave : undefined}>
      {chosen.length > 0 && (
        <div className="directory-picker__chosen">
          {chosen.map((entry, at) => (
            <Tag key={entry.id ?? `kept-${at}`} minimal>
              {entry.name}
              {editing && (
                <Button
                  variant="minimal"
                  size="small"
                  icon="cross"
                  aria-label={t('contractForm.remove', { name: entry.name })}
                  onClick={() => set(chosen.filter((_, i) => i !== at))}
                />
              )}
            </Tag>
          ))}
        </div>
      )}
      <InputGroup
        id={fieldInputId(field.id)}
        inputRef={search}
        aria-label={field.name}
        leftIcon="search"
        placeholder={placeholder}
        value={typed}
        disabled={!editing}
        onValueChange={(text) => {
          setTyped(text);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
      />
      {editing && open && loaded.status === 'loading' && <Spinner size={16} aria-label={t('directory.loading')} />}
      {editing && loaded.status === 'failed' && (
        <p className={`${Classes.TEXT_MUTED} directory-picker__note`} role="status">
          {loaded.text}
        </p>
      )}
      {editing && open && loaded.status === 'loaded' && (
        <Menu className="directory-picker__menu" aria-label={t('directory.choices', { name: field.name })}>
          {found.shown.length === 0 && <MenuItem disabled text={t('form.noData')} />}
          {found.shown.map((entry) => (
            <MenuItem key={entry.id} text={entry.name} label={entry.detail} onClick={() => choose(entry)} />
          ))}
          {found.more && <MenuItem disabled text={t('directory.narrow')} />}
        </Menu>
      )}
      {editing && loaded.status === 'loaded' && loaded.directory.offline && (
        <p className={`${Classes.TEXT_MUTED} directory-picker__note`} data-testid={`directory-as-of-${field.id}`}>
          {t('directory.asOf', { time: formatDateTime(loaded.directory.fetchedAt, i18n.language) })}
        </p>
      )}
    </div>
  );
}

const usersOf = (directory: Directory) => userEntries(directory.users);
const departmentsOf = (directory: Directory) => departmentEntries(directory.departments);

/** people: users of the organisation, each shown with their department. */
export function PeopleField(props: FieldProps<never>) {
  return <DirectoryPicker {...(props as FieldProps<unknown>)} entriesOf={usersOf} />;
}

/** department: departments of the organisation, each shown with its parent. */
export function DepartmentField(props: FieldProps<never>) {
  return <DirectoryPicker {...(props as FieldProps<unknown>)} entriesOf={departmentsOf} />;
}
