import { FormGroup, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

export function AlterationReason({ value, error, onChange }: { value: string; error: string | null; onChange(reason: string): void }) {
  const { t } = useTranslation();
  return (
    <FormGroup label={t('contracts.reason')} labelFor="alteration-reason" labelInfo="*" intent={error ? 'danger' : 'none'} helperText={error}>
      <TextArea
        id="alteration-reason"
        data-testid="alteration-reason"
        fill
        value={value}
        intent={error ? 'danger' : 'none'}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </FormGroup>
  );
}
