import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import zlib from 'node:zlib';
import { contentCodings, type ContentCoding } from '../../src-shared/api/content-coding';

// Answers are compressed in the coding the client offers, and request bodies sent compressed are
// taken (architecture, sync rule 10): a first sync of a large organisation moves about a tenth of
// the bytes. The codings are those this process's zlib has; every answer names the ones request
// bodies may use (Accept-Encoding on a response, RFC 7694), so a client never has to guess.

const codecs: Record<ContentCoding, keyof typeof zlib> = { br: 'createBrotliDecompress', gzip: 'createGunzip', deflate: 'createInflate' };

/** The codings this server reads and writes, best first. */
export const serverCodings: ContentCoding[] = contentCodings.filter((coding) => typeof zlib[codecs[coding]] === 'function');

export function installCompression(app: FastifyInstance): void {
  void app.register(compress, {
    encodings: serverCodings,
    requestEncodings: serverCodings,
    // Small answers are not worth a coding's header and CPU.
    threshold: 1024,
  });
  const accepted = serverCodings.join(', ');
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('accept-encoding', accepted);
    return payload;
  });
}
