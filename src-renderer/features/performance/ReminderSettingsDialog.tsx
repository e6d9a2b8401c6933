import { useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Intent, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { TimePicker } from '@blueprintjs/datetime';
import { useTranslation } from 'react-i18next';
import { reminderTaskKinds, type ReminderTaskKind } from '../../../src-shared/domain/enums';
import {
  otherReminderTimes,
  reminderKindSettingsSchema,
  repeatReminderTypes,
  timeNodeReminderTypes,
  type ReminderKindSettings,
  type ReminderSettings,
  type ReminderSettingsPatch,
} from '../../../src-shared/domain/reminders';
import { showNotice } from '../../app/toaster';
import { useActionFailure } from '../../app/useActionFailure';
import { errorText } from '../../i18n/errorText';
import { useReminderSettingsQuery, useSaveReminderSettingsMutation } from './performanceApi';

// The reminder settings dialog (spec 3 "Reminder settings", spec 5, spec 9): per task kind the
// time nodes (with the other times), the condition and overdue repeats and the reminder time.
// Only the kinds changed are queued (the last writer of a kind wins); the desktop reminders
// follow the change at once, offline too.

const toggled = <T,>(list: readonly T[], item: T, on: boolean): T[] => (on ? [...list, item] : list.filter((x) => x !== item));

/** "HH:mm" ⇄ the time picker's Date (only its hours and minutes count). */
const asDate = (time: string) => new Date(2000, 0, 1, Number(time.slice(0, 2)), Number(time.slice(3, 5)));
const asTime = (date: Date) => `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

function KindSettings({ kind, value, onChange }: { kind: ReminderTaskKind; value: ReminderKindSettings; onChange(value: ReminderKindSettings): void }) {
  const { t } = useTranslation();
  const { reminderTypes, otherTimes } = value.timeNode;
  const valid = reminderKindSettingsSchema.safeParse(value).success;
  return (
    <div className="reminder-settings__kind" data-testid={`reminder-settings-${kind}`}>
      <FormGroup label={t('dashboard.reminderSettings.timeNode')} labelInfo="*" intent={valid ? Intent.NONE : Intent.DANGER} helperText={valid ? undefined : t('messages.reminderTypeRequired')}>
        {timeNodeReminderTypes.map((type) => (
          <Checkbox
            key={type}
            inline
            label={t(`dashboard.reminderSettings.timeNodes.${type}`)}
            checked={reminderTypes.includes(type)}
            onChange={(event) => onChange({ ...value, timeNode: { ...value.timeNode, reminderTypes: toggled(reminderTypes, type, event.currentTarget.checked) } })}
          />
        ))}
        {reminderTypes.includes('other') && (
          <div className="reminder-settings__other">
            {otherReminderTimes.map((time) => (
              <Checkbox
                key={time}
                inline
                label={t(`dashboard.reminderSettings.otherTimes.${time}`)}
                checked={otherTimes.includes(time)}
                onChange={(event) => onChange({ ...value, timeNode: { ...value.timeNode, otherTimes: toggled(otherTimes, time, event.currentTarget.checked) } })}
              />
            ))}
          </div>
        )}
      </FormGroup>
      <div className="reminder-settings__row">
        <FormGroup label={t('dashboard.reminderSettings.condition')} labelFor={`${kind}-condition`}>
          <HTMLSelect
            id={`${kind}-condition`}
            value={value.condition.reminderType}
            onChange={(event) => onChange({ ...value, condition: { reminderType: event.currentTarget.value as ReminderKindSettings['condition']['reminderType'] } })}
            options={repeatReminderTypes.map((type) => ({ value: type, label: t(`dashboard.reminderSettings.repeat.${type}`) }))}
          />
        </FormGroup>
        <FormGroup label={t('dashboard.reminderSettings.overTime')} labelFor={`${kind}-overtime`}>
          <HTMLSelect
            id={`${kind}-overtime`}
            value={value.overTime.reminderType}
            onChange={(event) => onChange({ ...value, overTime: { reminderType: event.currentTarget.value as ReminderKindSettings['overTime']['reminderType'] } })}
            options={repeatReminderTypes.map((type) => ({ value: type, label: t(`dashboard.reminderSettings.repeat.${type}`) }))}
          />
        </FormGroup>
        <FormGroup label={t('dashboard.reminderSettings.reminderTime')}>
          <TimePicker value={asDate(value.reminderTime)} onChange={(date) => onChange({ ...value, reminderTime: asTime(date) })} />
        </FormGroup>
      </div>
    </div>
  );
}

/** The kinds whose settings differ from what was loaded. */
function changedKinds(loaded: ReminderSettings, edited: ReminderSettings): ReminderSettingsPatch {
  return Object.fromEntries(reminderTaskKinds.filter((kind) => JSON.stringify(loaded[kind]) !== JSON.stringify(edited[kind])).map((kind) => [kind, edited[kind]]));
}

/** The settings as loaded, edited: mounted once they are read, so editing starts from them. */
function ReminderSettingsForm({ loaded, onClose }: { loaded: ReminderSettings; onClose(): void }) {
  const { t } = useTranslation();
  const [edited, setEdited] = useState<ReminderSettings>(loaded);
  const [kind, setKind] = useState<ReminderTaskKind>('receivableTask');
  const [save, { isLoading }] = useSaveReminderSettingsMutation();
  const failed = useActionFailure();

  const patch = changedKinds(loaded, edited);
  const valid = reminderTaskKinds.every((k) => reminderKindSettingsSchema.safeParse(edited[k]).success);
  const changed = Object.keys(patch).length > 0;

  async function submit() {
    if (!valid || !changed) return;
    const result = await save({ settings: patch });
    if (result.error) {
      failed(result.error);
      return;
    }
    showNotice(t('dashboard.reminderSettings.saved'));
    onClose();
  }

  return (
    <>
      <DialogBody>
        <Tabs id="reminder-settings-kinds" selectedTabId={kind} onChange={(id) => setKind(id as ReminderTaskKind)} animate={false} vertical>
          {reminderTaskKinds.map((k) => (
            <Tab
              key={k}
              id={k}
              title={<span className={reminderKindSettingsSchema.safeParse(edited[k]).success ? undefined : 'reminder-settings__invalid'}>{t(`reminders.kinds.${k}`)}</span>}
              panel={<KindSettings kind={k} value={edited[k]} onChange={(value) => setEdited({ ...edited, [k]: value })} />}
            />
          ))}
        </Tabs>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('dashboard.reminderSettings.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              data-testid="reminder-settings-save"
              disabled={!valid || !changed}
              loading={isLoading}
              text={t('dashboard.reminderSettings.save')}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </>
  );
}

export function ReminderSettingsDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { data: loaded, error, isFetching } = useReminderSettingsQuery(undefined, { skip: !isOpen, refetchOnMountOrArgChange: true });
  let body;
  if (error) {
    body = (
      <DialogBody>
        <Callout intent="warning" icon="warning-sign" title={t('dashboard.reminderSettings.loadFailed')}>
          {errorText(t, error)}
        </Callout>
      </DialogBody>
    );
  } else if (!loaded || isFetching) {
    body = (
      <DialogBody>
        <Spinner size={24} />
      </DialogBody>
    );
  } else {
    body = <ReminderSettingsForm loaded={loaded} onClose={onClose} />;
  }
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('dashboard.reminderSettings.title')} style={{ width: 800 }}>
      <div data-testid="reminder-settings">{body}</div>
    </Dialog>
  );
}
