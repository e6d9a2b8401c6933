import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// Passwords are hashed with scrypt (memory-hard, in node:crypto). The stored text carries the
// parameters and the salt, so the cost can be raised later without breaking existing hashes:
//   scrypt$<N>$<r>$<p>$<salt, base64>$<hash, base64>

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

const currentParams: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;
const saltLength = 16;

function derive(password: string, salt: Buffer, length: number, { N, r, p }: ScryptParams): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; allow twice that so the default 32 MiB cap does not refuse it.
  const maxmem = 256 * N * r;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { N, r, p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, keyLength, currentParams);
  const { N, r, p } = currentParams;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

const storedPattern = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = storedPattern.exec(stored);
  if (!match) return false;
  const [, n = '', r = '', p = '', salt = '', hash = ''] = match;
  const expected = Buffer.from(hash, 'base64');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await derive(password, Buffer.from(salt, 'base64'), expected.length, params);
  return timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/**
 * A real hash of a password nobody knows: checking an unknown user name against it costs as much
 * as a real check, so response times do not reveal which user names exist.
 */
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
