// Two-character Chinese (and Japanese, Korean) words for the full-text index (issue 14). The
// trigram index cannot find a word shorter than three characters, and CJK text has no spaces to
// split words on, so each CJK run is also written as its overlapping character pairs, space
// separated, into a unicode61 index: a two-character word is then one token, an index lookup.

const cjkRun = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu;
const cjkPair = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2}$/u;

/** The SQL name of cjkBigrams, registered on every replica connection (the index triggers call it). */
export const cjkBigramsFunction = 'cjk_bigrams';

/** Every pair of adjacent CJK characters in `text`, space separated ('' when none; null stays null). */
export function cjkBigrams(text: string | null): string | null {
  if (text === null) return null;
  const pairs: string[] = [];
  for (const [run] of text.matchAll(cjkRun)) {
    const chars = Array.from(run);
    for (let i = 0; i + 1 < chars.length; i += 1) pairs.push(chars[i]! + chars[i + 1]!);
  }
  return pairs.join(' ');
}

/** A term the pair index holds: exactly two CJK characters. */
export function isCjkPair(term: string): boolean {
  return cjkPair.test(term);
}
