import { useCallback, useMemo, useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { TransferHandleMethod } from '../../../src-shared/domain/enums';
import { transferReasonMax } from '../../../src-shared/domain/ledger';
import { api } from '../../api/api';
import { showFailure, showNotice } from '../../app/toaster';
import { errorTextWithDetail } from '../../i18n/errorText';
import { useTransferContractsMutation } from '../archive/archiveApi';
import './transfer.css';

// The batch transfer of the responsible person (spec 2 "transfer dialog (width 450px)", 5, 6):
// rows chosen in the ledger, the new person required, handling method 1 or 2, a reason of at most
// 2000 characters and the warning that it cannot be undone. Online only: the core refuses it at
// once with the 'offline' message while the server is away.

interface Row {
  id: string;
  name: string;
}

/** Rows chosen in a list, by id (kept across its pages until cleared). */
export interface Selection<T extends { id: string }> {
  selected: ReadonlyMap<string, T>;
  toggle(rows: readonly T[], on: boolean): void;
  clear(): void;
}

export function useSelection<T extends { id: string }>(): Selection<T> {
  const [selected, setSelected] = useState<ReadonlyMap<string, T>>(new Map());
  const toggle = useCallback((rows: readonly T[], on: boolean) => {
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });
  }, []);
  const clear = useCallback(() => setSelected(new Map()), []);
  return useMemo(() => ({ selected, toggle, clear }), [selected, toggle, clear]);
}

/** The ledger's contracts chosen for a batch transfer. */
export const useContractSelection = () => useSelection<Row>();
export type ContractSelection = Selection<Row>;

/** Where a list's selection cells are: the ledger's contracts by default, or another list's (its class and test ids). */
interface SelectCellPlace {
  className?: string;
  testId?: string;
}

/** The header cell: chooses or clears every row of the page. */
export function SelectPageCell<T extends { id: string }>({ selection, rows, className = 'ledger-table__select', testId = 'transfer-select-page' }: { selection: Selection<T>; rows: readonly T[] } & SelectCellPlace) {
  const { t } = useTranslation();
  const chosen = rows.filter((row) => selection.selected.has(row.id)).length;
  return (
    <th className={className}>
      <Checkbox
        data-testid={testId}
        aria-label={t('archive.transfer.selectAll')}
        checked={rows.length > 0 && chosen === rows.length}
        indeterminate={chosen > 0 && chosen < rows.length}
        onChange={(event) => selection.toggle(rows, event.currentTarget.checked)}
      />
    </th>
  );
}

/** A row's cell; `name` says which row it chooses. */
export function SelectRowCell<T extends { id: string }>({ selection, row, name, className = 'ledger-table__select', testId = 'transfer-select-row' }: { selection: Selection<T>; row: T; name: string } & SelectCellPlace) {
  const { t } = useTranslation();
  return (
    <td className={className}>
      <Checkbox
        data-testid={testId}
        aria-label={t('archive.transfer.selectRow', { name })}
        checked={selection.selected.has(row.id)}
        onChange={(event) => selection.toggle([row], event.currentTarget.checked)}
      />
    </td>
  );
}

function TransferDialog({ contractIds, onClose, onDone }: { contractIds: readonly string[]; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const { data: directory } = api.endpoints.directory.useQuery();
  const [userId, setUserId] = useState('');
  const [method, setMethod] = useState<TransferHandleMethod>(TransferHandleMethod.AsBusinessHandler);
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [transfer, state] = useTransferContractsMutation();
  const personMissing = userId === '';
  const tooLong = reason.length > transferReasonMax;

  const submit = async () => {
    setTried(true);
    if (personMissing || tooLong) return;
    try {
      await transfer({ contractIDList: [...contractIds], userID: userId, handleMethod: method, reason }).unwrap();
      showNotice(t('archive.transfer.succeeded'));
      onDone();
    } catch (cause) {
      showFailure(errorTextWithDetail(t, cause as never));
    }
  };

  return (
    <Dialog isOpen onClose={state.isLoading ? undefined : onClose} title={t('archive.transfer.title')} style={{ width: 450 }} className="transfer-dialog">
      <DialogBody>
        <p data-testid="transfer-count">{t('archive.transfer.selected', { count: contractIds.length })}</p>
        <FormGroup
          label={t('archive.transfer.person')}
          labelFor="transfer-person"
          labelInfo="*"
          intent={tried && personMissing ? 'danger' : 'none'}
          helperText={tried && personMissing ? t('archive.transfer.personRequired') : undefined}
        >
          <HTMLSelect id="transfer-person" data-testid="transfer-person" fill value={userId} onChange={(event) => setUserId(event.currentTarget.value)}>
            <option value="">{directory?.users.length === 0 ? t('archive.transfer.noPeople') : t('archive.transfer.personPlaceholder')}</option>
            {directory?.users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.department ? `${user.name} (${user.department.name})` : user.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <RadioGroup
          label={t('archive.transfer.method')}
          selectedValue={method}
          onChange={(event) => setMethod(Number(event.currentTarget.value) as TransferHandleMethod)}
        >
          <Radio data-testid="transfer-method-1" value={TransferHandleMethod.AsBusinessHandler} label={t('archive.transfer.methodAsHandler')} />
          <Radio data-testid="transfer-method-2" value={TransferHandleMethod.KeepAgentIdentity} label={t('archive.transfer.methodKeepAgent')} />
        </RadioGroup>
        <FormGroup
          label={t('archive.transfer.reason')}
          labelFor="transfer-reason"
          intent={tooLong ? 'danger' : 'none'}
          helperText={tooLong ? t('archive.transfer.reasonTooLong', { max: transferReasonMax }) : t('archive.transfer.reasonLength', { count: reason.length, max: transferReasonMax })}
        >
          <TextArea
            id="transfer-reason"
            data-testid="transfer-reason"
            fill
            rows={3}
            intent={tooLong ? 'danger' : 'none'}
            placeholder={t('archive.transfer.reasonPlaceholder')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </FormGroup>
        <Callout intent="warning" icon="warning-sign" data-testid="transfer-warning">
          {t('archive.transfer.warning')}
        </Callout>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('archive.transfer.cancel')} disabled={state.isLoading} onClick={onClose} />
            <Button intent="primary" data-testid="transfer-confirm" text={t('archive.transfer.confirm')} loading={state.isLoading} disabled={tooLong} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}

/** The ledger's batch transfer button: with no row chosen it says so (spec 8), otherwise opens the dialog. */
export function TransferAction({ selection }: { selection: ContractSelection }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        data-testid="transfer-open"
        icon="swap-horizontal"
        variant="minimal"
        text={selection.selected.size > 0 ? t('archive.transfer.actionCount', { count: selection.selected.size }) : t('archive.transfer.action')}
        onClick={() => (selection.selected.size === 0 ? showFailure(t('archive.transfer.contractsRequired')) : setOpen(true))}
      />
      {open && (
        <TransferDialog
          contractIds={[...selection.selected.keys()]}
          onClose={() => setOpen(false)}
          onDone={() => {
            selection.clear();
            setOpen(false);
          }}
        />
      )}
    </>
  );
}
