// Counterparty rules (spec 5): shared by the party forms and the server.

/** Letters, digits, hyphen, dash and underscore; 9 to 24 characters. */
export const bankAccountPattern = /^[A-Za-z0-9\-_‐–—]{9,24}$/;
export const bankAccountMessage = 'please enter 9-24 characters';
export const counterpartyNameMessage = 'please enter the name';

export function isValidBankAccount(account: string): boolean {
  return bankAccountPattern.test(account);
}

/** Why a party's name cannot be saved, or null (spec 5: required for inner and outer parties). */
export function counterpartyNameProblem(name: string): typeof counterpartyNameMessage | null {
  return name.trim() === '' ? counterpartyNameMessage : null;
}

/** Why a bank account cannot be saved, or null (spec 5: 9 to 24 letters, digits, hyphens, dashes, underscores). */
export function bankAccountProblem(account: string): typeof bankAccountMessage | null {
  return isValidBankAccount(account.trim()) ? null : bankAccountMessage;
}
