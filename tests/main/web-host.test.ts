import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Core } from '../../src-main/core/core';
import { startWebHost, type WebHost } from '../../src-main/web-host/web-host';
import { hostFrameSchema, webHostKeyName, type HostFrame } from '../../src-shared/ipc/wire';
import { testCore } from '../support/core';
import { tempDir } from '../support/temp';

// The web host carries the channel map over a WebSocket; whatever a page sends, it answers with a
// value or drops the frame, and the core is never reached by a malformed call. Only its own pages
// reach it: its own Host names, and the key of this launch written into the pages it serves.

const dir = tempDir('contract-desk-webhost-');
const rendererDir = join(dir.path, 'renderer');
let core: Core;
let host: WebHost;
let key: string;

/** This launch's key, read from the app shell the host serves, as the app's own page reads it. */
async function pageKey(url = host.url): Promise<string> {
  const html = await (await fetch(`${url}/`)).text();
  const key = new RegExp(`<meta name="${webHostKeyName}" content="([^"]+)"`).exec(html)?.[1];
  if (!key) throw new Error('the app shell carries no key');
  return key;
}

function openSocket(options: { key?: string | null; origin?: string; hostHeader?: string } = {}): WebSocket {
  const query = options.key === null ? '' : `?${webHostKeyName}=${encodeURIComponent(options.key ?? key)}`;
  return new WebSocket(`${host.url.replace('http', 'ws')}/ipc${query}`, {
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    ...(options.hostHeader === undefined ? {} : { headers: { host: options.hostHeader } }),
  });
}

function connect(origin?: string): Promise<WebSocket> {
  const socket = openSocket({ origin });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What became of a socket the host should not serve: the HTTP status it was refused with, and any frame it got. */
function refusal(socket: WebSocket): Promise<{ status: number | null; frames: unknown[] }> {
  const frames: unknown[] = [];
  socket.on('message', (data) => frames.push(data.toString()));
  socket.once('open', () => socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app.info', request: {} })));
  return new Promise((resolve) => {
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? null, frames });
      response.resume();
    });
  });
}

/** A plain HTTP GET with the given Host header (fetch will not send a foreign one). */
function getWithHost(path: string, hostHeader: string): Promise<number> {
  const { hostname, port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, headers: { host: hostHeader } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end();
  });
}

function nextResult(socket: WebSocket): Promise<Extract<HostFrame, { type: 'result' }>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = hostFrameSchema.parse(JSON.parse(data.toString()));
      if (frame.type === 'result') {
        socket.off('message', onMessage);
        resolve(frame);
      }
    };
    socket.on('message', onMessage);
  });
}

async function invoke(socket: WebSocket, frame: unknown) {
  const answer = nextResult(socket);
  socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  return answer;
}

beforeAll(async () => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>app shell</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  core = testCore(join(dir.path, 'desktop'));
  host = await startWebHost({ core, rendererDir, port: 0 });
  key = await pageKey();
});

afterAll(async () => {
  await host.close();
  await core.close();
  dir.cleanup();
});

describe('web host', () => {
  it('answers a channel call over the socket', async () => {
    const socket = await connect();
    const frame = await invoke(socket, { type: 'invoke', id: 1, channel: 'app.info', request: {} });
    expect(frame).toEqual({ type: 'result', id: 1, result: { ok: true, data: { version: 'test', host: 'web', systemLocale: 'en-US', organizationShare: false } } });
    socket.close();
  });

  it('answers unknown channels, malformed requests and frames with a readable id with error values, and drops unreadable frames', async () => {
    const socket = await connect();
    expect((await invoke(socket, { type: 'invoke', id: 2, channel: 'nope', request: {} })).result).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    const invalid = await invoke(socket, { type: 'invoke', id: 3, channel: 'settings.update', request: { serverUrl: 'javascript:alert(1)' } });
    expect(invalid.result).toMatchObject({ ok: false, error: { code: 'validation_failed', issues: [{ path: 'serverUrl' }] } });
    // A frame that is no call but whose id can be read is told why.
    expect(await invoke(socket, { id: 5, channel: 'nope' })).toMatchObject({ type: 'result', id: 5, result: { ok: false, error: { code: 'validation_failed', issues: expect.arrayContaining([expect.objectContaining({ path: 'type' })]) } } });
    const badShape = await invoke(socket, { type: 'invoke', id: 6, channel: ['settings.get'], request: {} });
    expect(badShape).toEqual({ type: 'result', id: 6, result: { ok: false, error: { code: 'validation_failed', message: expect.stringContaining('channel'), issues: [expect.objectContaining({ path: 'channel' })] } } });
    socket.send('{not json');
    socket.send(JSON.stringify({ type: 'invoke', id: -1, channel: 'app.info' }));
    // The socket still works after the frames it could not read.
    expect((await invoke(socket, { type: 'invoke', id: 4, channel: 'settings.get', request: {} })).result).toEqual({
      ok: true,
      data: { serverUrl: null, language: null, archiveCacheMegabytes: 512 },
    });
    socket.close();
  });

  it('refuses pages from another origin', async () => {
    const socket = await connect('http://evil.example');
    const code = await new Promise<number>((resolve) => socket.once('close', (c) => resolve(c)));
    expect(code).toBe(1008);
  });

  it('closes a socket that sends an oversized frame', async () => {
    const socket = await connect();
    const closed = new Promise<number>((resolve) => socket.once('close', (c) => resolve(c)));
    socket.send(JSON.stringify({ type: 'invoke', id: 5, channel: 'app.info', request: { x: 'x'.repeat(2 * 1024 * 1024) } }));
    expect(await closed).toBe(1009);
  });

  it('closes at once while a page holds a socket it never lets go of', { timeout: 8_000 }, async () => {
    const own = await startWebHost({ core, rendererDir, port: 0 });
    const { port } = new URL(own.url);
    const ownKey = await pageKey(own.url);
    // A peer that completes the upgrade and then ignores the close handshake, as a busy or
    // reconnecting page can: a graceful close would wait for it.
    const peer = connectTcp(Number(port), '127.0.0.1');
    await new Promise((resolve) => peer.once('connect', resolve));
    peer.write(
      `GET /ipc?${webHostKeyName}=${ownKey} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    await new Promise((resolve) => peer.once('data', resolve));
    const dropped = new Promise((resolve) => peer.once('close', resolve));
    await own.close();
    await dropped;
  });

  it('serves built files, the app shell for deep links, and 404 for missing assets', async () => {
    const asset = await fetch(`${host.url}/assets/app.js`);
    expect(await asset.text()).toBe('console.log(1)');
    const deepLink = await fetch(`${host.url}/contractApproval/detail?id=3&flowId=0&tab=PERFORMANCE_TAB&active=0`);
    expect(deepLink.status).toBe(200);
    const shell = await deepLink.text();
    expect(shell).toContain('app shell');
    expect(shell).toContain(`<meta name="${webHostKeyName}" content="${key}"`);
    expect(deepLink.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${host.url}/assets/missing.js`)).status).toBe(404);
  });

  it('makes a new key at each launch, long and random', async () => {
    const other = await startWebHost({ core, rendererDir, port: 0 });
    const otherKey = await pageKey(other.url);
    await other.close();
    expect(otherKey).not.toBe(key);
    expect(Buffer.from(key, 'base64url').length).toBe(32);
  });

  it('serves HTTP only under its own loopback names and port', async () => {
    const { port } = new URL(host.url);
    for (const own of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) expect(await getWithHost('/', own)).toBe(200);
    // A page whose DNS name was rebound to 127.0.0.1 names its own site, or the right name with another port.
    for (const foreign of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`, `127.0.0.1.evil.example:${port}`]) expect(await getWithHost('/', foreign), foreign).toBe(421);
    expect(await getWithHost('/assets/app.js', `evil.example:${port}`)).toBe(421);
  });

  it('gives no answer to a socket with a foreign Host and Origin, even with the key', async () => {
    const { port } = new URL(host.url);
    const rebound = await refusal(openSocket({ hostHeader: `evil.example:${port}`, origin: `http://evil.example:${port}` }));
    expect(rebound).toEqual({ status: 421, frames: [] });
  });

  it("gives no answer to a socket without this launch's key", async () => {
    expect(await refusal(openSocket({ key: null }))).toEqual({ status: 403, frames: [] });
    expect(await refusal(openSocket({ key: 'x'.repeat(key.length) }))).toEqual({ status: 403, frames: [] });
    expect(await refusal(openSocket({ key: '' }))).toEqual({ status: 403, frames: [] });
  });
});
