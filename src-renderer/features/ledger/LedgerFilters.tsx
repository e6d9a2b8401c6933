import type { FormEvent } from 'react';
import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { filtersReset, keywordTyped, searched } from './ledgerSlice';

/** The top filter drawer's contents: a keyword matched against contract name or number. */
export function LedgerFilters() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const keyword = useAppSelector((state) => state.ledger.keyword);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(searched());
  };

  return (
    <form className="ledger-filters" onSubmit={submit}>
      <FormGroup label={t('ledger.keyword')} labelFor="ledger-keyword" inline>
        <InputGroup
          id="ledger-keyword"
          data-testid="ledger-keyword"
          type="search"
          leftIcon="search"
          maxLength={100}
          value={keyword}
          onValueChange={(value) => dispatch(keywordTyped(value))}
        />
      </FormGroup>
      <Button type="submit" intent="primary" data-testid="ledger-search" text={t('ledger.search')} />
      <Button text={t('ledger.reset')} onClick={() => dispatch(filtersReset())} />
    </form>
  );
}
