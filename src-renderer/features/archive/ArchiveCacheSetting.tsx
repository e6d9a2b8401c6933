import { useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, MenuItem, NumericInput } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { archiveCacheMegabytes } from '../../../src-shared/ipc/archive';
import { useSettingsQuery, useUpdateSettingsMutation } from '../../api/api';
import { showFailure, showNotice } from '../../app/toaster';
import { errorText } from '../../i18n/errorText';
import { useArchiveCacheUsageQuery } from './archiveApi';

const megabyte = 1024 * 1024;

/** The archive cache's size, with what it holds now. */
export function ArchiveCacheDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { data: settings } = useSettingsQuery();
  const { data: usage } = useArchiveCacheUsageQuery();
  const [update, state] = useUpdateSettingsMutation();
  const [value, setValue] = useState(String(settings?.archiveCacheMegabytes ?? archiveCacheMegabytes.default));
  const size = Number(value);
  const valid = Number.isInteger(size) && size >= archiveCacheMegabytes.min && size <= archiveCacheMegabytes.max;

  const save = async () => {
    try {
      await update({ archiveCacheMegabytes: size }).unwrap();
      showNotice(t('archive.cache.saved'));
      onClose();
    } catch (cause) {
      showFailure(errorText(t, cause as never));
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={t('archive.cache.title')} style={{ width: 450 }} className="archive-cache-dialog">
      <DialogBody>
        <p>{t('archive.cache.help')}</p>
        <FormGroup
          label={t('archive.cache.size')}
          labelFor="archive-cache-size"
          intent={valid ? 'none' : 'danger'}
          helperText={
            valid
              ? usage && t('archive.cache.usage', { used: (usage.usedBytes / megabyte).toFixed(1), files: usage.files })
              : t('archive.cache.invalid', { min: archiveCacheMegabytes.min, max: archiveCacheMegabytes.max })
          }
        >
          <NumericInput
            id="archive-cache-size"
            data-testid="archive-cache-size"
            min={archiveCacheMegabytes.min}
            max={archiveCacheMegabytes.max}
            stepSize={64}
            majorStepSize={512}
            minorStepSize={null}
            intent={valid ? 'none' : 'danger'}
            value={value}
            onValueChange={(_number, text) => setValue(text)}
          />
        </FormGroup>
        {usage && (
          <p data-testid="archive-cache-queued">{t('archive.cache.queuedUsage', { files: usage.queuedFiles, used: (usage.queuedBytes / megabyte).toFixed(1) })}</p>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('archive.archive.cancel')} onClick={onClose} />
            <Button intent="primary" data-testid="archive-cache-save" text={t('archive.cache.save')} disabled={!valid} loading={state.isLoading} onClick={() => void save()} />
          </>
        }
      />
    </Dialog>
  );
}

/** The user menu's entry for the archive cache's size (a setting). */
export function ArchiveCacheMenuItem({ onOpen }: { onOpen(): void }) {
  const { t } = useTranslation();
  return <MenuItem data-testid="archive-cache-menu" icon="database" text={t('archive.cache.menu')} onClick={onOpen} />;
}

