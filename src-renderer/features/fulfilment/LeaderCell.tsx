import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SheetColumn } from '../../../src-shared/domain/performance';
import { directoryValueEntries } from '../../../src-shared/form/directory';
import { useFormServices } from '../contract-form';
import { columnField, SheetCell } from './SheetCell';

// The task leader of a sheet row (spec 3 "Task card" taskLeader): one person from the directory,
// stored on the task as the user's id. The row knows only the id: the name comes from the
// directory (the kept one offline).

export function LeaderCell({ column, value, disabled, onChange }: { column: SheetColumn; value: string | null; disabled: boolean; onChange(leaderUserId: string | null): void }) {
  const { t } = useTranslation();
  const services = useFormServices();
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    // Without the directory the picker itself says why; the row keeps its leader.
    services.directory().then((directory) => live && setNames(new Map(directory.users.map((user) => [user.id, user.name]))), () => undefined);
    return () => {
      live = false;
    };
  }, [services]);
  const single: SheetColumn = { ...column, type: 'people', config: { ...column.config, singleSelect: true } };
  const person = value === null ? null : { id: value, name: names.get(value) ?? '' };
  return (
    <div data-testid="sheet-edit-leader" title={columnField(t, single).name}>
      <SheetCell column={single} value={person} disabled={disabled} problem={null} onChange={(next) => onChange(directoryValueEntries(next)[0]?.id ?? null)} />
    </div>
  );
}
