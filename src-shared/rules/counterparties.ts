// Counterparty rules (spec 5): shared by the party forms and the server.

/** Letters, digits, hyphen, dash and underscore; 9 to 24 characters. */
export const bankAccountPattern = /^[A-Za-z0-9\-_‐–—]{9,24}$/;
export const bankAccountMessage = 'please enter 9-24 characters';
export const counterpartyNameMessage = 'please enter the name';

export function isValidBankAccount(account: string): boolean {
  return bankAccountPattern.test(account);
}
