// Spec 5: contract names lose the characters a file name cannot hold, as they are typed,
// including the full-width colon and question mark of Chinese input methods.

export const contractNameForbiddenCharacters = ['\\', '/', ':', '*', '?', '"', '<', '>', '|', '：', '？'] as const;

const forbidden = new RegExp(`[${contractNameForbiddenCharacters.map((c) => `\\${c}`).join('')}]`, 'g');

export function stripContractName(typed: string): string {
  return typed.replace(forbidden, '');
}
