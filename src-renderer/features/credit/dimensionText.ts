import type { TFunction } from 'i18next';
import { riskDimensionWord } from '../../../src-shared/rules/credit';

/** A risk dimension in the user's language; one the app does not know, as the credit platform names it. */
export function dimensionText(t: TFunction, name: string): string {
  const word = riskDimensionWord(name);
  return word ? t(`credit.dimensions.${word}`) : name;
}
