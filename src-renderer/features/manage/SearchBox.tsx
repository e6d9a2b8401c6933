import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Button, InputGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** Typing pauses this long before an as-you-type search asks the list again. */
export const searchAsYouTypeMs = 300;

interface SearchBoxProps {
  placeholder: string;
  onSearch(q: string): void;
  testId?: string;
  /** Searches when typing pauses too (a dialog's picker), not only on Enter or the button. */
  asYouType?: boolean;
}

/**
 * A search field: the list is asked again on Enter or the button (and, as you type, when typing
 * pauses). Not a form of its own: inside a dialog's form, Enter would submit that form instead.
 */
export function SearchBox({ placeholder, onSearch, testId, asYouType = false }: SearchBoxProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const searched = useRef('');

  function search(value: string) {
    searched.current = value;
    onSearch(value);
  }
  const searchLater = useEffectEvent(search);

  useEffect(() => {
    if (!asYouType || text.trim() === searched.current) return;
    const timer = setTimeout(() => searchLater(text.trim()), searchAsYouTypeMs);
    return () => clearTimeout(timer);
  }, [asYouType, text]);

  return (
    <div className="manage__search" role="search">
      <InputGroup
        leftIcon="search"
        placeholder={placeholder}
        value={text}
        onValueChange={setText}
        maxLength={100}
        data-testid={testId}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
          event.preventDefault();
          search(text.trim());
        }}
      />
      <Button text={t('manage.search')} onClick={() => search(text.trim())} />
    </div>
  );
}
