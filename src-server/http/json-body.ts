import type { FastifyInstance } from 'fastify';
import { maxJsonDepth } from '../../src-shared/api/endpoint';
import { AppFailure } from '../../src-shared/errors';

// Every later step of a request walks its body recursively (the NUL check, zod, the request hash
// of a keyed write), so a body nested thousands deep would overflow the stack and answer 500.
// The JSON parser therefore measures the nesting of the raw text, without recursion, first.

const openers = new Set(['{', '[']);
const closers = new Set(['}', ']']);

/** Whether the JSON text nests arrays and objects deeper than `limit`; brackets inside strings do not count. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (openers.has(char)) {
      if (++depth > limit) return true;
    } else if (closers.has(char)) {
      depth--;
    }
  }
  return false;
}

export const tooDeepMessage = `the JSON body is nested more than ${maxJsonDepth} levels deep`;

/** Replaces Fastify's JSON parser with the same parser behind the depth check. */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, maxJsonDepth)) {
      done(new AppFailure('bad_request', tooDeepMessage), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
