import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { stripContractName } from '../../../src-shared/form/contract-name';

/** The contract's name where the template has no 'contract name' field (a blank contract). */
export function ContractNameInput({ value, error, onChange }: { value: string; error: string | null; onChange(name: string): void }) {
  const { t } = useTranslation();
  return (
    <FormGroup label={t('contracts.name')} labelFor="contract-name" labelInfo="*" intent={error ? 'danger' : 'none'} helperText={error}>
      <InputGroup
        id="contract-name"
        data-testid="contract-name"
        value={value}
        maxLength={200}
        intent={error ? 'danger' : 'none'}
        onValueChange={(typed) => onChange(stripContractName(typed))}
      />
    </FormGroup>
  );
}
