// The content codings sync bodies may travel in (architecture, sync rule 10), best first: each
// side offers only those its own zlib has, and a side uses one only when the other offered it
// (Accept-Encoding; a server names what it takes in request bodies in the same header of its
// answers, as RFC 7694 describes). zstd is left out while Node's fetch cannot decode it everywhere.

export const contentCodings = ['br', 'gzip', 'deflate'] as const;
export type ContentCoding = (typeof contentCodings)[number];

/** The codings an Accept-Encoding value offers (q=0 refuses one), in the order given. */
export function offeredCodings(header: string | null | undefined): ContentCoding[] {
  if (!header) return [];
  const offered: ContentCoding[] = [];
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    const coding = contentCodings.find((known) => known === name.trim());
    if (coding && !refused && !offered.includes(coding)) offered.push(coding);
  }
  return offered;
}
