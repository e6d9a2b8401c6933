import { createHash, randomBytes } from 'node:crypto';

// Tokens are 32 random bytes; the database keeps only their sha256, so a leaked table cannot be
// replayed. sha256 (not scrypt) is enough here: the tokens carry 256 bits of entropy.

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
