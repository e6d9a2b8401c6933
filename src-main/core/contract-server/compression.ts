import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { contentCodings, offeredCodings, type ContentCoding } from '../../../src-shared/api/content-coding';

// The client's half of compressed sync (architecture, sync rule 10). Answers: it offers the
// codings its zlib decodes (fetch decodes the answer). Request bodies: it compresses one only in
// a coding the server named in the Accept-Encoding of an earlier answer, and forgets that coding
// when the server refuses it (415), so a server that stops taking it costs one resend.

const encoders: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  // Brotli's quality 4 compresses a page about as fast as gzip and smaller; 11 is far too slow for live bodies.
  br: (body) => promisify(zlib.brotliCompress)(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (body) => promisify(zlib.gzip)(body),
  deflate: (body) => promisify(zlib.deflate)(body),
};
const decoders: Record<ContentCoding, keyof typeof zlib> = { br: 'brotliDecompress', gzip: 'gunzip', deflate: 'inflate' };

/** The codings this process reads and writes, best first. */
export const clientCodings: ContentCoding[] = contentCodings.filter((coding) => typeof zlib[decoders[coding]] === 'function');

/** Bodies smaller than this go as they are: a coding's framing and CPU would not pay off. */
export const compressFromBytes = 1024;

export interface BodyCoding {
  /** The Accept-Encoding header of every request. */
  readonly acceptEncoding: string;
  /** Learns what request codings the server takes from an answer's Accept-Encoding. */
  heard(response: Response): void;
  /** The body to send, compressed when the server said it takes a coding and the body is large enough. */
  encode(body: string): Promise<{ body: string | Uint8Array<ArrayBuffer>; coding: ContentCoding | null }>;
  /** The server refused a coding it had named (415): send plain from now on, until it names one again. */
  refused(coding: ContentCoding): void;
}

export function bodyCoding(): BodyCoding {
  let accepted: ContentCoding[] = [];
  return {
    acceptEncoding: clientCodings.join(', '),
    heard(response) {
      if (response.headers.has('accept-encoding')) accepted = offeredCodings(response.headers.get('accept-encoding')).filter((c) => clientCodings.includes(c));
    },
    async encode(body) {
      const coding = accepted[0];
      if (!coding || Buffer.byteLength(body) < compressFromBytes) return { body, coding: null };
      return { body: new Uint8Array(await encoders[coding](Buffer.from(body))), coding };
    },
    refused(coding) {
      accepted = accepted.filter((c) => c !== coding);
    },
  };
}
