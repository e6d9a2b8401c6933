import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyReply } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebSocket } from 'ws';
import { validationFailure } from '../../src-shared/errors';
import { clientFrameSchema, frameIdSchema, webHostKeyName, webHostSocketPath, type HostFrame } from '../../src-shared/ipc/wire';
import type { Core } from '../core/core';

// The browser edition of the desktop app: it serves the built renderer and carries the very same
// IPC channel map over a WebSocket to the same core the Electron shell uses.
//
// The core behind the socket holds the signed-in user's contracts, so only this host's own pages
// may reach it: requests must name the host by its own loopback name and port (a page whose DNS
// name was rebound to 127.0.0.1 names its own site), and the socket must carry the key made at
// this launch, which only the pages served here know.

export interface WebHostOptions {
  core: Core;
  rendererDir: string;
  port?: number;
  host?: string;
}

export interface WebHost {
  url: string;
  close(): Promise<void>;
}

/** Largest frame a renderer may send: channel requests are small; anything bigger is refused. */
const maxFrameBytes = 1024 * 1024;

/** The Host header values of this host: its loopback names, and the address it was bound to unless that is a wildcard. */
export function ownHostNames(boundHost: string, port: number): Set<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  if (!['0.0.0.0', '::', '[::]'].includes(boundHost)) names.push(boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost);
  return new Set(names.map((name) => `${name.toLowerCase()}:${port}`));
}

/** The app shell with the launch key in it. */
function withKey(html: string, key: string): string {
  const meta = `<meta name="${webHostKeyName}" content="${key}" />`;
  return html.includes('</head>') ? html.replace('</head>', `    ${meta}\n  </head>`) : `${meta}${html}`;
}

function sameKey(given: unknown, key: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { core, rendererDir } = options;
  const boundHost = options.host ?? '127.0.0.1';
  // base64url: safe in an attribute and a query string as it is.
  const key = randomBytes(32).toString('base64url');
  let hostNames = new Set<string>();
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`The renderer is not built (no ${join(rendererDir, 'index.html')}): run \`npm run build:renderer\` first.`);
  }
  // Closing the host means the app is quitting: drop every connection at once instead of waiting
  // for open pages, whose sockets would otherwise keep reconnecting and hold the close up.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: maxFrameBytes },
    preClose: (done) => {
      for (const client of app.websocketServer.clients) client.terminate();
      done();
    },
  });
  // Every request, the socket's upgrade included, must name this host (421: not the site it asked for).
  app.addHook('onRequest', async (request, reply) => {
    if (!hostNames.has((request.headers.host ?? '').toLowerCase())) return reply.code(421).type('text/plain').send('Misdirected request');
    // The socket is this launch's pages' only: without the key it is not even opened.
    if (request.url.split('?')[0] === webHostSocketPath && !sameKey((request.query as Record<string, unknown>)[webHostKeyName], key)) {
      return reply.code(403).type('text/plain').send('Forbidden');
    }
  });
  // wildcard: files are looked up per request, so a rebuilt renderer is served without a restart.
  // The app shell is served below, with the launch key in it.
  await app.register(fastifyStatic, { root: rendererDir, wildcard: true, index: false });

  /** The app shell, read per request (a rebuilt renderer needs no restart) and never cached: its key is this launch's. */
  async function sendShell(reply: FastifyReply) {
    const html = await readFile(join(rendererDir, 'index.html'), 'utf8');
    return reply.type('text/html').header('Cache-Control', 'no-store').send(withKey(html, key));
  }
  app.get('/', (_request, reply) => sendShell(reply));
  app.get('/index.html', (_request, reply) => sendShell(reply));

  app.register(async (scope) => {
    scope.get(webHostSocketPath, { websocket: true }, (socket, request) => {
      // Only pages this host served may drive the core: a foreign site open in the same browser
      // must not reach the user's contracts through localhost.
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== `http://${request.headers.host}` && origin !== `https://${request.headers.host}`) {
        socket.close(1008, 'foreign origin');
        return;
      }
      serveSocket(socket, core);
    });
  });

  // Deep links (/standingBook/detail?...) load the app shell; the router takes it from there.
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api/') && !/\.[a-z0-9]+(\?|$)/i.test(request.url)) return sendShell(reply);
    return reply.code(404).send({ code: 'not_found', message: 'no data' });
  });

  const address = await app.listen({ port: options.port ?? 0, host: boundHost });
  hostNames = ownHostNames(boundHost, Number(new URL(address).port));
  return { url: address, close: () => app.close() };
}

function serveSocket(socket: WebSocket, core: Core) {
  const send = (frame: HostFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const unsubscribe = core.subscribe((event, payload) => send({ type: 'event', event, payload }));
  socket.on('close', unsubscribe);
  socket.on('message', async (data) => {
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      // Without a readable id there is nobody to answer; drop the frame and keep the socket.
      return;
    }
    const frame = clientFrameSchema.safeParse(json);
    if (frame.success) {
      send({ type: 'result', id: frame.data.id, result: await core.invoke(frame.data.channel, frame.data.request) });
      return;
    }
    // A frame that is no call but names its id gets told why, so its caller does not wait forever.
    const readable = frameIdSchema.safeParse(json);
    if (readable.success) send({ type: 'result', id: readable.data.id, result: { ok: false, error: validationFailure(frame.error).error } });
  });
}
