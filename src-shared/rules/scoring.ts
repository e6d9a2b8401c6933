// Scoring rules (spec 5, "Scoring"): one message per criterion, checked in this order.

export const scoreRequiredMessage = 'this field cannot be empty';
export const scoreIntegerMessage = 'score must be an integer, positive';
export const scoreTooHighMessage = 'score cannot be greater than full score';
export const scoreSavedMessage = 'operation successful!';

/** A score as typed (digits only) or sent as a number. */
export type ScoreInput = number | string | null | undefined;

/** The message for an invalid actual score, or undefined when it is a whole number in 0..maxScore. */
export function scoreError(value: ScoreInput, maxScore: number): string | undefined {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return scoreRequiredMessage;
  const score = typeof value === 'string' ? (/^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN) : value;
  if (!Number.isSafeInteger(score) || score < 0) return scoreIntegerMessage;
  if (score > maxScore) return scoreTooHighMessage;
  return undefined;
}
