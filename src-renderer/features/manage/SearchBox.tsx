import { useState } from 'react';
import { Button, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

interface SearchBoxProps {
  placeholder: string;
  onSearch(q: string): void;
  testId?: string;
}

/** A search field: the list is asked again on Enter or the button, not on every key. */
export function SearchBox({ placeholder, onSearch, testId }: SearchBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  return (
    <form
      className="manage__search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <InputGroup leftIcon="search" placeholder={placeholder} value={text} onValueChange={setText} maxLength={100} data-testid={testId} />
      <Button type="submit" text={t('manage.search')} />
    </form>
  );
}
