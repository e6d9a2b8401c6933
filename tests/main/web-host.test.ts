import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Core } from '../../src-main/core/core';
import { startWebHost, type WebHost } from '../../src-main/web-host/web-host';
import { hostFrameSchema, type HostFrame } from '../../src-shared/ipc/wire';
import { testCore } from '../support/core';
import { tempDir } from '../support/temp';

// The web host carries the channel map over a WebSocket; whatever a page sends, it answers with a
// value or drops the frame, and the core is never reached by a malformed call.

const dir = tempDir('contract-desk-webhost-');
const rendererDir = join(dir.path, 'renderer');
let core: Core;
let host: WebHost;

function connect(origin?: string): Promise<WebSocket> {
  const socket = new WebSocket(`${host.url.replace('http', 'ws')}/ipc`, origin === undefined ? {} : { origin });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
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
      data: { serverUrl: null, language: null },
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
    // A peer that completes the upgrade and then ignores the close handshake, as a busy or
    // reconnecting page can: a graceful close would wait for it.
    const peer = connectTcp(Number(port), '127.0.0.1');
    await new Promise((resolve) => peer.once('connect', resolve));
    peer.write(
      `GET /ipc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
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
    expect(await deepLink.text()).toContain('app shell');
    expect((await fetch(`${host.url}/assets/missing.js`)).status).toBe(404);
  });
});
