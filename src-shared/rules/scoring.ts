import { AppFailure, defaultErrorMessages, type FieldIssue } from '../errors';

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

/** A criterion as the rules need it: its id and its full score. */
export interface ScoredCriterion {
  id: string;
  maxScore: number;
}

/** What a score submission sends back: the actual score per criterion, by group. */
export interface ScoreSubmission {
  resultItems: readonly { children: readonly { id: string; actualScore?: ScoreInput }[] }[];
}

/**
 * Checks every criterion's score against its own full score, as the server does when it saves a
 * score and the core before it queues one. Each criterion of the organisation must be scored; one
 * that is missing fails as empty, one that is unknown as bad input. Returns the scores to keep.
 */
export function checkScores(criteria: readonly ScoredCriterion[], body: ScoreSubmission): { criterionId: string; actualScore: number }[] {
  const sent = new Map<string, { path: string; value: ScoreInput }>();
  body.resultItems.forEach((group, g) =>
    group.children.forEach((child, c) => sent.set(child.id, { path: `resultItems.${g}.children.${c}.actualScore`, value: child.actualScore })),
  );
  const issues: FieldIssue[] = [];
  const scores: { criterionId: string; actualScore: number }[] = [];
  const known = new Set<string>();
  for (const criterion of criteria) {
    known.add(criterion.id);
    const entry = sent.get(criterion.id);
    const message = scoreError(entry?.value, criterion.maxScore);
    if (message) issues.push({ path: entry?.path ?? `resultItems.${criterion.id}.actualScore`, message });
    else scores.push({ criterionId: criterion.id, actualScore: Number(entry!.value) });
  }
  for (const [id, { path }] of sent) if (!known.has(id)) issues.push({ path: path.replace(/\.actualScore$/, '.id'), message: `unknown criterion ${id}` });
  if (issues.length > 0) {
    const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new AppFailure('validation_failed', `${defaultErrorMessages.validation_failed}: ${summary}`, issues);
  }
  return scores;
}
