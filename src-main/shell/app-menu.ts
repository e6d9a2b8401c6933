import type { MenuItemConstructorOptions } from 'electron';
import type { Language } from '../../src-shared/i18n/languages';
import type { Core } from '../core/core';
import type { Logger } from '../core/ports';

export interface MenuOptions {
  /** The saved UI language; null follows the operating system. */
  language: Language | null;
  /** Packaged builds get no developer tools. */
  packaged: boolean;
  platform: NodeJS.Platform;
  setLanguage(language: Language | null): void;
}

// The menu is bilingual so that whoever picked the wrong language can still find the way back.
const languageChoices: { label: string; value: Language | null }[] = [
  { label: 'English', value: 'en' },
  { label: '简体中文', value: 'zh-CN' },
  { label: 'Follow the system / 跟随系统', value: null },
];

/** The application menu: app (macOS), edit, view (reload; dev tools unpackaged), language, window. */
export function appMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(options.packaged ? [] : ([{ role: 'forceReload' }, { role: 'toggleDevTools' }] as MenuItemConstructorOptions[])),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(options.platform === 'darwin' ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : [{ role: 'fileMenu' } as MenuItemConstructorOptions]),
    { role: 'editMenu' },
    { label: 'View / 视图', submenu: view },
    {
      label: 'Language / 语言',
      submenu: languageChoices.map(({ label, value }) => ({
        label,
        type: 'radio' as const,
        checked: options.language === value,
        click: () => options.setLanguage(value),
      })),
    },
    { role: 'windowMenu' },
  ];
}

/**
 * Saves the language through the core (the same channel the renderer's own switch uses), then
 * reloads the windows so every screen shows it. A refusal is logged, never thrown.
 */
export async function changeLanguage(
  core: Pick<Core, 'invoke'>,
  language: Language | null,
  windows: () => { reload(): void }[],
  logger: Logger,
): Promise<boolean> {
  const result = await core.invoke('settings.update', { language });
  if (!result.ok) {
    logger.warn('could not change the language', result.error);
    return false;
  }
  for (const window of windows()) window.reload();
  return true;
}
