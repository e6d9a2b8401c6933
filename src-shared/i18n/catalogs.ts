import { en, type Catalog } from './en';
import type { Language } from './languages';
import { zhCN } from './zh-CN';

export const catalogs: Record<Language, Catalog> = { en, 'zh-CN': zhCN };
export type { Catalog };
