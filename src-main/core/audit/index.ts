import { maxAuditExportRows, type AuditEvent, type AuditEventsQuery } from '../../../src-shared/api/audit';
import type { Device } from '../../../src-shared/api/devices';
import { AppFailure, reason } from '../../../src-shared/errors';
import { catalogs, type Catalog } from '../../../src-shared/i18n/catalogs';
import { formatInstantIn } from '../../../src-shared/i18n/days';
import type { Language } from '../../../src-shared/i18n/languages';
import { eq } from 'drizzle-orm';
import { keptTemplate } from '../contracts/drafting-store';
import { contracts } from '../data/schema';
import type { CoreFeature, FeatureHost } from '../feature';
import type { ActiveSession } from '../session/session-service';
import { onlineCall } from '../session/online-call';
import { createWorkbookExporter, type WorkbookCell, type WorkbookSheet } from '../workbook/workbook-export';
import { auditActionText, auditChangeText, auditEntityText } from '../../../src-shared/i18n/audit-words';

// The audit trail's Excel export (issue 32, item 4): the events matching the audit screen's
// filters, paged from the server (the trail is not kept on the device, so it is online only and
// refused at once with 'offline' while the server is away) and written by the app's workbook
// exporter with the screen's columns, in the user's language and time format.

export type AuditChannel = 'audit.export' | 'audit.exportRead';

/** Events asked of the server per page: the most its route gives. */
const pageRows = 500;

export type AuditFilters = Omit<AuditEventsQuery, 'pageNum' | 'pageSize' | 'untilSeq'>;
type AuditPage = { list: AuditEvent[]; count: number };

const columns = ['seq', 'appliedAt', 'editedAt', 'user', 'device', 'entity', 'action', 'changes'] as const;
const widths: Record<(typeof columns)[number], number> = { seq: 8, appliedAt: 22, editedAt: 22, user: 16, device: 38, entity: 48, action: 24, changes: 80 };

/** A contract's form field's label by the contract's template as this device keeps it; undefined where it is not known. */
export type ContractFormLabel = (contractId: string, fieldId: string) => string | undefined;

/** Labels of the replica's contracts' form fields, each contract's template read once per export. */
function replicaFormLabels(session: ActiveSession): ContractFormLabel {
  const labels = new Map<string, ReadonlyMap<string, string>>();
  return (contractId, fieldId) => {
    let known = labels.get(contractId);
    if (!known) {
      const templateId = session.replica.db.select({ templateId: contracts.templateId }).from(contracts).where(eq(contracts.id, contractId)).get()?.templateId;
      const template = templateId ? keptTemplate(session.replica.db, session.user.id, templateId) : null;
      known = new Map((template?.fields ?? []).map((field) => [field.id, field.name]));
      labels.set(contractId, known);
    }
    return known.get(fieldId);
  };
}

/** The organisation's devices the sheet names: the server's id, its name, and whether it is the one exporting. */
export type AuditDevice = Pick<Device, 'id' | 'name' | 'current'>;

/**
 * Each listed device's words as the screen says them: 'this device' for the one exporting, else its
 * name. A device the list lacks (a REST session's, one no longer listed) is 'another device', never its id.
 */
function deviceWords(devices: readonly AuditDevice[], catalog: Catalog): (device: string) => string {
  const known = new Map(devices.map((device) => [device.id, device.current ? catalog.devices.thisDevice : device.name]));
  return (device) => known.get(device) ?? catalog.audit.anotherDevice;
}

/** One event's row, as the screen shows it but whole: the device in words, the full record id and every change with its values. */
function eventCells(event: AuditEvent, catalog: Catalog, deviceText: (device: string) => string, formLabel: ContractFormLabel, language: Language, zone: string | undefined): WorkbookCell[] {
  const changes = Object.entries(event.changes).map(([field, change]) => auditChangeText(catalog, event.entity, field, change, event.entity === 'contract' && event.entityId ? (fieldId) => formLabel(event.entityId!, fieldId) : undefined));
  return [
    { value: event.seq },
    { value: formatInstantIn(event.appliedAt, language, zone) },
    { value: event.editedAt ? formatInstantIn(event.editedAt, language, zone) : null },
    { value: event.userName },
    { value: deviceText(event.device) },
    { value: event.entityId ? `${auditEntityText(catalog, event.entity)} ${event.entityId}` : auditEntityText(catalog, event.entity) },
    { value: auditActionText(catalog, event.action) },
    { value: changes.join('\n') },
  ];
}

/**
 * The sheet of the events matching `filters`, newest first, read page by page through `page`.
 * The first page fixes the newest event, so the events recorded meanwhile neither shift the pages
 * nor join the export; more than `maxAuditExportRows` events are refused before anything is written.
 */
export async function auditSheet(
  page: (query: AuditEventsQuery) => Promise<AuditPage>,
  filters: AuditFilters,
  devices: readonly AuditDevice[],
  language: Language,
  zone?: string,
  formLabel: ContractFormLabel = () => undefined,
): Promise<WorkbookSheet> {
  const catalog = catalogs[language];
  const first = await page({ ...filters, pageNum: 1, pageSize: pageRows });
  if (first.count > maxAuditExportRows) {
    throw new AppFailure('validation_failed', `${first.count} events match: an export holds at most ${maxAuditExportRows}`, undefined, reason('auditExportTooLarge', { matching: first.count, max: maxAuditExportRows }));
  }
  const untilSeq = first.list[0]?.seq;
  const deviceText = deviceWords(devices, catalog);
  const toRows = (list: AuditEvent[]) => list.map((event) => eventCells(event, catalog, deviceText, formLabel, language, zone));
  return {
    name: catalog.audit.export.sheet,
    columns: columns.map((column) => ({ header: catalog.audit.columns[column], width: widths[column] })),
    total: first.count,
    batches: (async function* () {
      yield toRows(first.list);
      if (untilSeq === undefined) return;
      for (let pageNum = 2, read = first.list.length; read < first.count; pageNum += 1) {
        const { list } = await page({ ...filters, pageNum, pageSize: pageRows, untilSeq });
        if (list.length === 0) return;
        read += list.length;
        yield toRows(list);
      }
    })(),
  };
}

export interface AuditOptions {
  /** A folder of the core's own for finished exports (temporary: emptied at sign-out). */
  exportsDir: string;
  /** The user's IANA time zone; the system's by default. */
  timeZone?: () => string;
}

export function createAuditFeature(host: FeatureHost, options: AuditOptions): CoreFeature<AuditChannel> {
  const exporter = createWorkbookExporter({ dir: options.exportsDir, onProgress: (progress) => host.hub.emit('audit.exportProgress', progress) });
  const clearExports = () => void exporter.clear().catch((cause: unknown) => host.logger.warn('could not remove the finished audit exports', String(cause)));
  return {
    start: clearExports,
    stop: clearExports,
    handlers: {
      'audit.export': ({ exportId, filters, language }) => {
        const session = host.signedIn();
        return exporter.write(exportId, async () => {
          const devices = await onlineCall(session, 'adminDevices', { query: {} });
          return auditSheet((query) => onlineCall(session, 'auditEvents', { query }), filters, devices, language, options.timeZone?.(), replicaFormLabels(session));
        });
      },
      'audit.exportRead': ({ exportId, offset }) => {
        host.signedIn();
        return exporter.read(exportId, offset);
      },
    },
  };
}
