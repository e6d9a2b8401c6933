import { formatSerial } from '../../../src-shared/rules/numbering';

// The number a contract drafted offline shows until sync: the next number of the rule the server
// would number it by (src-shared/rules/numbering-scope.ts chooses it from the catalogue's preview).
// The server allocates the real one on sync and confirms or replaces this one.

/**
 * The preview's number `step` serials further on: the serial is the number's trailing digits,
 * kept at their width (a zero-padded serial stays padded, a natural one has no leading zero).
 */
export function numberAfter(format: string, step: number): string {
  const match = /^(.*?)(\d+)$/.exec(format);
  if (!match) return step === 0 ? format : `${format}-${step}`;
  const [, prefix, serial] = match as unknown as [string, string, string];
  return `${prefix}${formatSerial({ digits: serial.length, isNatural: false }, Number(serial) + step)}`;
}
