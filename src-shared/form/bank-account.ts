import { formMessage, type FormMessage } from './messages';

// Spec 5 and 9: bank accounts hold letters, digits, hyphens, dashes and underscores; 9 to 24
// characters (24 is the default maximum).

export const bankAccountMinLength = 9;
export const bankAccountMaxLength = 24;

const allowed = /[A-Za-z0-9\-–—_]/g;

/** What the input keeps of the typed text: the allowed characters, cut to the maximum. */
export function sanitizeBankAccount(typed: string, maxLength: number = bankAccountMaxLength): string {
  return (typed.match(allowed) ?? []).join('').slice(0, maxLength);
}

/** An empty account is left to the required rule. */
export function validateBankAccount(value: string, maxLength: number = bankAccountMaxLength): FormMessage | null {
  if (value === '') return null;
  if (sanitizeBankAccount(value, Number.MAX_SAFE_INTEGER) !== value) return formMessage('bankAccountCharacters');
  if (value.length < bankAccountMinLength || value.length > maxLength) return formMessage('bankAccountLength');
  return null;
}
