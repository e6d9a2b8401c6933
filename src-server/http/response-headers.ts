import type { FastifyInstance } from 'fastify';

// Every answer of the API carries tokens or an organisation's contracts: no cache may keep it, no
// browser may guess its type, frame it or run anything from it. A route that sets one of these
// itself (a file download's own type) keeps its value.

export const apiResponseHeaders = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
} as const;

export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(apiResponseHeaders)) {
      if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    return payload;
  });
}
