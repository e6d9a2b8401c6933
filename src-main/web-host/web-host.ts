import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WebSocket } from 'ws';
import { validationFailure } from '../../src-shared/errors';
import { clientFrameSchema, frameIdSchema, webHostSocketPath, type HostFrame } from '../../src-shared/ipc/wire';
import type { Core } from '../core/core';

// The browser edition of the desktop app: it serves the built renderer and carries the very same
// IPC channel map over a WebSocket to the same core the Electron shell uses.

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

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { core, rendererDir } = options;
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
  // wildcard: files are looked up per request, so a rebuilt renderer is served without a restart.
  await app.register(fastifyStatic, { root: rendererDir, wildcard: true });

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
    if (request.method === 'GET' && !request.url.startsWith('/api/') && !/\.[a-z0-9]+(\?|$)/i.test(request.url)) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ code: 'not_found', message: 'no data' });
  });

  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
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
