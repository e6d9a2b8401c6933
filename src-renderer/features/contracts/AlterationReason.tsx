import { FormGroup, TextArea } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { alterContractRequestSchema } from '../../../src-shared/ipc/drafting';

/** The reason's rule is the alter request's (trimmed, 1..2000): its message, or null when valid. */
export function reasonError(reason: string): 'contracts.reasonRequired' | 'contracts.reasonTooLong' | null {
  const checked = alterContractRequestSchema.shape.reason.safeParse(reason);
  if (checked.success) return null;
  return checked.error.issues[0]?.code === 'too_big' ? 'contracts.reasonTooLong' : 'contracts.reasonRequired';
}

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
