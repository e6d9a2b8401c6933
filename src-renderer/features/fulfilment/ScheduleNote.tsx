import { HTMLTable, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../src-shared/domain/money';
import { periodicScheduleSchema } from '../../../src-shared/domain/performance';
import { generatePeriodicSchedule, type SchedulePeriod } from '../../../src-shared/rules/schedule';
import { formatDay } from '../../i18n/format';

/** The periodic schedule and its periods as the server generates them (one shared rule), the prorated first and last marked. */
export function ScheduleNote({ schedule }: { schedule: unknown }) {
  const { t, i18n } = useTranslation();
  const parsed = periodicScheduleSchema.safeParse(schedule);
  if (!parsed.success) return null;
  const { cycle, startDate, endDate, amount } = parsed.data;
  let periods: SchedulePeriod[] = [];
  try {
    periods = generatePeriodicSchedule({ cycle, startDate, endDate, amount: amount.amount });
  } catch {
    // A schedule the rule refuses was refused when saved; the note alone is shown.
  }
  return (
    <div className="fulfilment-plan__schedule" data-testid="plan-schedule">
      <p>
        {t('fulfilment.schedule', {
          cycle: t(`fulfilment.cycles.${cycle}`),
          start: formatDay(startDate, i18n.language),
          end: formatDay(endDate, i18n.language),
          amount: formatMoney(amount),
        })}
      </p>
      {periods.length > 0 && (
        // A table embedded in a page or dialog is at most 300 px high (spec 9); its header stays in view.
        <div className="fulfilment-periods__scroll">
          <HTMLTable compact className="contract-page__table fulfilment-periods" data-testid="schedule-periods">
            <thead>
              <tr>
                <th>{t('fulfilment.period')}</th>
                <th>{t('fulfilment.dueDate')}</th>
                <th>{t('fulfilment.share')}</th>
                <th className="ledger-table__amount">{t('fulfilment.periodAmount')}</th>
              </tr>
            </thead>
            <tbody>
              {periods.map((period) => {
                const prorated = !period.weight.equals(1);
                return (
                  <tr key={period.startDate} data-testid="schedule-period" data-prorated={prorated}>
                    <td>{`${formatDay(period.startDate, i18n.language)} ~ ${formatDay(period.endDate, i18n.language)}`}</td>
                    <td>{formatDay(period.dueDate, i18n.language)}</td>
                    <td>
                      {prorated ? (
                        <Tag minimal intent="warning">
                          {t('fulfilment.prorated', { percent: period.weight.times(100).toDecimalPlaces(1).toString() })}
                        </Tag>
                      ) : (
                        t('fulfilment.fullPeriod')
                      )}
                    </td>
                    <td className="ledger-table__amount">{formatMoney({ amount: period.amount, unit: amount.unit })}</td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  );
}
