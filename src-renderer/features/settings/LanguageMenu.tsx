import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '../../../src-shared/i18n/languages';
import { useSettingsQuery, useUpdateSettingsMutation } from '../../api/api';
import { useActionFailure } from '../../app/useActionFailure';

/** English, 简体中文 or follow the system (null); the choice is saved in the core's settings. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const { data: settings } = useSettingsQuery();
  const [updateSettings] = useUpdateSettingsMutation();
  const onFailure = useActionFailure();
  const choices: { value: Language | null; label: string }[] = [
    ...languages.map((language) => ({ value: language, label: t(`app.languageNames.${language}`) })),
    { value: null, label: t('app.languageSystem') },
  ];
  const saved = settings?.language ?? null;

  const menu = (
    <Menu aria-label={t('app.language')}>
      {choices.map(({ value, label }) => (
        <MenuItem
          key={value ?? 'system'}
          text={label}
          roleStructure="listoption"
          selected={value === saved}
          onClick={() => void updateSettings({ language: value }).unwrap().catch(onFailure)}
        />
      ))}
    </Menu>
  );

  return (
    <PopoverNext content={menu} placement="bottom-end">
      <Button
        data-testid="language-menu"
        variant="minimal"
        icon="translate"
        endIcon="caret-down"
        text={choices.find((choice) => choice.value === saved)?.label}
        aria-label={t('app.language')}
      />
    </PopoverNext>
  );
}
