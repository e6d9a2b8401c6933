import { Button, Callout, Dialog, DialogBody, FormGroup, H5, HTMLSelect, InputGroup, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScheduleConditionType, type ContractStatus } from '../../../src-shared/domain/enums';
import { currencyUnits, toMinorUnits } from '../../../src-shared/domain/money';
import { periodicScheduleSchema, type Performance, type PeriodicSchedule, type PlanSave } from '../../../src-shared/domain/performance';
import type { ContractPerformance, PlanSheet } from '../../../src-shared/ipc/fulfilment';
import { mayAddPlan } from '../../../src-shared/rules/fulfilment';
import { generatePeriodicSchedule, scheduleCycles, type ScheduleCycle } from '../../../src-shared/rules/schedule';
import { languageForLocale, type Language } from '../../../src-shared/i18n/languages';
import { useCreatePlanMutation } from '../../api/api';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { DateInput } from '../../i18n/DateInput';
import { AsOfNote } from '../cached-reads/AsOfNote';
import { useCachedRead } from '../cached-reads/useCachedRead';
import { ScheduleNote } from './ScheduleNote';
import { SheetEditor } from './SheetEditor';

// "Add performance plan" on a contract's performance tab (issue 28 item 2): a performance the
// contract has no plan for (the organisation's definitions, kept for offline use "as of" their
// time), then rows generated from a periodic schedule (previewed as the server will generate them,
// one shared rule) and rows typed by hand in the sheet editor, saved together as one offline
// mutation. Only contracts of the statuses the shared rule allows take plans; the others say so.

type Direction = PeriodicSchedule['direction'];

/** The amount column a schedule fills: the performance's own, else the one its task type implies. */
function directionOf(performance: Performance): Direction {
  if (performance.columns.some((column) => column.id === 'receivableAmount')) return 'receivable';
  if (performance.columns.some((column) => column.id === 'payableAmount')) return 'payable';
  return performance.type === 'receivable' || performance.type === 'collection' ? 'receivable' : 'payable';
}

/** The sheet of a plan not made yet, for the editor of its rows typed by hand. */
const draftSheet = (performance: Performance): PlanSheet => ({
  id: `new:${performance.id}`,
  performanceId: performance.id,
  performanceName: performance.name,
  performanceType: performance.type,
  columns: performance.columns,
  conditionType: ScheduleConditionType.SingleOrMultiple,
  schedule: null,
  version: 0,
  tasks: [],
  pendingRows: null,
});

interface ScheduleForm {
  cycle: ScheduleCycle;
  startDate: string;
  endDate: string;
  amount: string;
  unit: string;
  name: string;
}

/** Why the form is not a schedule yet: a key of the planCreate catalog, with the shared rule's words for a refused one. */
type ScheduleProblem = { key: 'endBeforeStart' | 'amountRequired' } | { key: 'scheduleRefused'; why: string };

/** The schedule the form describes, its rows named in `language`, or why it is not one (null: not filled in yet). */
function scheduleOf(form: ScheduleForm, direction: Direction, language: Language): { schedule: PeriodicSchedule } | { problem: ScheduleProblem | null } {
  if (form.startDate === '' || form.endDate === '') return { problem: null };
  if (form.endDate < form.startDate) return { problem: { key: 'endBeforeStart' } };
  const amount = Number(form.amount.trim());
  if (form.amount.trim() === '' || !Number.isFinite(amount) || amount <= 0) return { problem: { key: 'amountRequired' } };
  const parsed = periodicScheduleSchema.safeParse({
    cycle: form.cycle, startDate: form.startDate, endDate: form.endDate, amount: { amount: toMinorUnits(form.amount.trim()), unit: form.unit }, direction, name: form.name, language,
  });
  if (!parsed.success) return { problem: { key: 'scheduleRefused', why: parsed.error.issues[0]?.message ?? '' } };
  // The shared rule refuses a schedule of too many periods: said here, before saving.
  const { cycle, startDate, endDate } = parsed.data;
  try {
    generatePeriodicSchedule({ cycle, startDate, endDate, amount: parsed.data.amount.amount });
  } catch (error) {
    return { problem: { key: 'scheduleRefused', why: (error as Error).message } };
  }
  return { schedule: parsed.data };
}

function AddPlanForm({ contractId, performances, onClose }: { contractId: string; performances: Performance[]; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const [performanceId, setPerformanceId] = useState(performances[0]!.id);
  const performance = performances.find((p) => p.id === performanceId) ?? performances[0]!;
  const [periodic, setPeriodic] = useState(false);
  const [form, setForm] = useState<ScheduleForm>({ cycle: 'month', startDate: '', endDate: '', amount: '', unit: currencyUnits[0], name: '' });
  const [createPlan] = useCreatePlanMutation();
  const failed = useActionFailure();
  const direction = directionOf(performance);
  const described = scheduleOf({ ...form, name: form.name.trim() || performance.name }, direction, languageForLocale(i18n.language));
  const schedule = 'schedule' in described ? described.schedule : null;
  const problem = 'problem' in described ? described.problem : null;
  const change = (patch: Partial<ScheduleForm>) => setForm((current) => ({ ...current, ...patch }));

  function save(rows: PlanSave['rows']) {
    const plan = {
      contractID: contractId,
      conditionType: periodic ? ScheduleConditionType.Periodicity : ScheduleConditionType.SingleOrMultiple,
      ...(periodic && schedule && { schedule }),
      rows: rows.map((row) => ({ ...row, name: row.name ?? '' })),
    };
    createPlan({ performanceId: performance.id, performance: { name: performance.name, type: performance.type, columns: performance.columns, fields: performance.fields }, plan })
      .unwrap()
      .then(() => {
        showNotice(t('planCreate.created'));
        onClose();
      }, failed);
  }

  return (
    <>
      <FormGroup label={t('planCreate.performance')} labelFor="plan-create-performance">
        <HTMLSelect
          id="plan-create-performance"
          data-testid="plan-create-performance"
          value={performance.id}
          options={performances.map((p) => ({ value: p.id, label: p.name }))}
          onChange={(event) => setPerformanceId(event.currentTarget.value)}
        />
      </FormGroup>
      <Switch data-testid="plan-create-periodic" checked={periodic} label={t('planCreate.periodic')} onChange={(event) => setPeriodic(event.currentTarget.checked)} />
      {periodic && (
        <section className="plan-create__schedule" data-testid="plan-create-schedule">
          <div className="plan-create__fields">
            <FormGroup label={t('planCreate.cycle')} labelFor="plan-create-cycle">
              <HTMLSelect
                id="plan-create-cycle"
                data-testid="plan-create-cycle"
                value={form.cycle}
                options={scheduleCycles.map((cycle) => ({ value: cycle, label: t(`fulfilment.cycles.${cycle}`) }))}
                onChange={(event) => change({ cycle: event.currentTarget.value as ScheduleCycle })}
              />
            </FormGroup>
            <FormGroup label={t('planCreate.startDate')}>
              <div data-testid="plan-create-start">
                <DateInput label={t('planCreate.startDate')} value={form.startDate} onChange={(value) => change({ startDate: value ?? '' })} />
              </div>
            </FormGroup>
            <FormGroup label={t('planCreate.endDate')}>
              <div data-testid="plan-create-end">
                <DateInput label={t('planCreate.endDate')} value={form.endDate} invalid={problem?.key === 'endBeforeStart'} onChange={(value) => change({ endDate: value ?? '' })} />
              </div>
            </FormGroup>
            <FormGroup label={t('planCreate.amount')} labelFor="plan-create-amount">
              <InputGroup
                id="plan-create-amount"
                data-testid="plan-create-amount"
                inputMode="decimal"
                placeholder={t('planCreate.amountRequired')}
                value={form.amount}
                intent={problem?.key === 'amountRequired' ? 'danger' : 'none'}
                onChange={(event) => change({ amount: event.currentTarget.value })}
              />
            </FormGroup>
            <FormGroup label={t('planCreate.unit')} labelFor="plan-create-unit">
              <HTMLSelect id="plan-create-unit" value={form.unit} options={[...currencyUnits]} onChange={(event) => change({ unit: event.currentTarget.value })} />
            </FormGroup>
            <FormGroup label={t('planCreate.taskName')} labelFor="plan-create-name">
              <InputGroup id="plan-create-name" data-testid="plan-create-name" placeholder={performance.name} value={form.name} onChange={(event) => change({ name: event.currentTarget.value })} />
            </FormGroup>
          </div>
          <p className="plan-create__direction">{t('planCreate.direction', { column: t(`planCreate.directions.${direction}`) })}</p>
          <H5>{t('planCreate.preview')}</H5>
          {problem && (
            <Callout compact intent="danger" data-testid="plan-create-problem">
              {problem.key === 'scheduleRefused' ? t('planCreate.scheduleRefused', { why: problem.why }) : t(`planCreate.${problem.key}`)}
            </Callout>
          )}
          {schedule ? <ScheduleNote schedule={schedule} /> : !problem && <p className="plan-create__hint">{t('planCreate.previewEmpty')}</p>}
        </section>
      )}
      <H5 className="plan-create__rows-title">{t('planCreate.handRows')}</H5>
      {periodic && <p className="plan-create__hint">{t('planCreate.handRowsOptional')}</p>}
      <SheetEditor
        key={`${performance.id}:${periodic}`}
        plan={draftSheet(performance)}
        contractId={contractId}
        onDone={onClose}
        collect={{ onRows: save, minRows: periodic ? 0 : 1, disabled: periodic && !schedule }}
      />
    </>
  );
}

/** The contract's "Add performance plan" action: disabled with the reason where its status takes no plans. */
export function AddPlan({ contractId, performance }: { contractId: string; performance: ContractPerformance }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Read with the tab, so the definitions are kept for the dialog offline.
  const { answer, error, isFetching } = useCachedRead({ endpoint: 'performanceList' });
  const allowed = mayAddPlan(performance.contractStatus as ContractStatus | null) && !performance.alterationQueued;
  const planned = new Set(performance.plans.map((plan) => plan.performanceId));
  const left = (answer?.value.performanceList ?? []).filter((p) => !planned.has(p.id));
  let body;
  if (left.length > 0) body = <AddPlanForm contractId={contractId} performances={left} onClose={() => setOpen(false)} />;
  else if (isFetching) body = <Spinner size={20} />;
  else if (error) body = <Callout intent="warning">{errorText(t, error)}</Callout>;
  else body = <NonIdealState icon="th-list" title={answer && answer.value.performanceList.length > 0 ? t('planCreate.noneLeft') : t('planCreate.noPerformances')} />;
  return (
    <div className="plan-create__action">
      <Button icon="add" intent="primary" data-testid="plan-add" disabled={!allowed} text={t('planCreate.add')} onClick={() => setOpen(true)} />
      {!mayAddPlan(performance.contractStatus as ContractStatus | null) && (
        <span className="plan-create__note" data-testid="plan-add-note">
          {t('planCreate.statusNote')}
        </span>
      )}
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={t('planCreate.title')} style={{ width: 1000 }}>
        <DialogBody className="plan-create" data-testid="plan-create-dialog">
          <AsOfNote answer={answer} />
          {body}
        </DialogBody>
      </Dialog>
    </div>
  );
}
