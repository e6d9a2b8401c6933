// Search words are data: LIKE's own wildcards and its escape character are escaped before a word
// reaches SQL, so `%`, `_` and `\` match themselves. The one place every feature's search uses.

/** `q` as a LIKE pattern matching exactly `q` (add `%` around it for a contains or prefix search). */
export function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching any text that contains `q`. */
export function containsPattern(q: string): string {
  return `%${escapeLike(q)}%`;
}
