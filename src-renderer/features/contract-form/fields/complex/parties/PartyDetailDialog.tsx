import { Dialog, DialogBody, HTMLTable, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { externalDetailSchema } from '../../../../../../src-shared/api/counterparties';
import type { PartyValue } from '../../../../../../src-shared/form/field-config';
import { partyDetailId } from '../../../../../../src-shared/form/parties';
import type { CachedAnswer } from '../../../../../../src-shared/ipc/cached-reads';
import { AsOfNote } from '../../../../cached-reads/AsOfNote';
import { callFailureText, formMessageText, useFormServices } from '../services';

type ExternalDetail = z.infer<typeof externalDetailSchema>;
type Loaded = { status: 'loading' } | { status: 'loaded'; detail: ExternalDetail; answer: CachedAnswer<unknown> } | { status: 'failed'; text: string };

/** The party detail preview: the basic-information panel of an external party (spec 2). */
export function PartyDetailDialog({ party, onClose }: { party: PartyValue; onClose: () => void }) {
  const { t } = useTranslation();
  const id = partyDetailId(party.id);
  return (
    <Dialog isOpen onClose={onClose} title={party.name || t('form.partyDetail')} style={{ width: 600 }}>
      <DialogBody>
        <h4>{t('form.partyDetail')}</h4>
        {id.ok ? <ExternalDetailPanel id={String(id.value)} /> : <p role="status">{formMessageText(t, id.message)}</p>}
      </DialogBody>
    </Dialog>
  );
}

function ExternalDetailPanel({ id }: { id: string }) {
  const { t } = useTranslation();
  const services = useFormServices();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    // Kept when read, so a party opened once online opens on the train "as of" then.
    services.cachedRead('counterpartExternalDetail', { params: { id }, query: { refresh: true } }).then(
      (answer) => {
        const parsed = externalDetailSchema.safeParse(answer.value);
        if (live) setLoaded(parsed.success ? { status: 'loaded', detail: parsed.data, answer } : { status: 'failed', text: t('form.noData') });
      },
      (failure: unknown) => live && setLoaded({ status: 'failed', text: callFailureText(t, failure) }),
    );
    return () => {
      live = false;
    };
  }, [services, id, t]);

  if (loaded.status === 'loading') return <Spinner size={20} />;
  if (loaded.status === 'failed') return <p role="status">{loaded.text}</p>;
  const { detail } = loaded;
  const labels = t('contractFormComplex.partyDetail', { returnObjects: true });
  const dash = (text: string | null) => text || '--';
  const rows: [string, string][] = [
    [labels.name, detail.name],
    [labels.subType, labels.subTypes[detail.subType]],
    [labels.idNumber, dash(detail.idNumber)],
    [labels.address, dash(detail.address)],
    [labels.contactInfo, dash(detail.contactInfo)],
    [labels.email, dash(detail.email)],
    [labels.fax, dash(detail.fax)],
    [labels.rating, t('creditRating', { returnObjects: true })[detail.rating]],
    [labels.riskCount, String(detail.riskCount)],
    [labels.isConnectedTransaction, detail.isConnectedTransaction ? labels.yes : labels.no],
  ];
  return (
    <>
      <AsOfNote answer={loaded.answer} testId="party-detail-as-of" />
      <HTMLTable compact className="party-detail" data-testid="party-detail" aria-label={t('form.partyDetail')}>
        <tbody>
          {rows.map(([label, text]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{text}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </>
  );
}
