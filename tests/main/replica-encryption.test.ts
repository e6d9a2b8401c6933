import Database from 'better-sqlite3-multiple-ciphers';
import { randomBytes } from 'node:crypto';
import { existsSync, openAsBlob, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractServerClient } from '../../src-main/core/contract-server/client';
import type { Core } from '../../src-main/core/core';
import { openReplica } from '../../src-main/core/data/replica';
import { replicaPathFor } from '../../src-main/core/session/session-service';
import { keyFilePath } from '../../src-main/core/vault/replica-keys';
import { clientMigrationsDir } from '../../src-main/paths';
import { rotatingFileLogger } from '../../src-main/shell/rotating-log';
import type { Contract } from '../../src-shared/domain/contract';
import { seedDemoData, startContractServer, type RunningServer } from '../../src-server';
import { call, settledSync, testCore, waitFor } from '../support/core';
import { openKeptReplica } from '../support/replica-file';
import { tempDir } from '../support/temp';

// Encrypted at rest (issue 32 item 1): the replica does not open without its key; after a first
// sync the data folder holds no contract name, amount or counterparty in clear; a plain replica
// (as the build before encryption left it) keeps its outbox through the conversion; a lost key
// means a fresh first sync with the unsent edits reported, never a crash.

const serverDir = tempDir('contract-desk-encryption-server-');
let server: RunningServer;

beforeAll(async () => {
  await seedDemoData({ contracts: 60, seed: 32, dataDir: serverDir.path });
  server = await startContractServer({ port: 0, dataDir: serverDir.path });
}, 180_000);

afterAll(async () => {
  await server?.close().catch(() => undefined);
  serverDir.cleanup();
});

/** A fetch that fails like a dropped network while `offline` is set. */
function gatedFetch(): { offline: boolean; fetch: typeof fetch } {
  const gate: { offline: boolean; fetch: typeof fetch } = {
    offline: false,
    fetch: ((input, init) => (gate.offline ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init))) as typeof fetch,
  };
  return gate;
}

async function serverContracts(): Promise<Contract[]> {
  const client = createContractServerClient(server.url);
  const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
  const list: Contract[] = [];
  for (let pageNum = 1; ; pageNum += 1) {
    const page = await client.call('contractList', { token, query: { pageNum, pageSize: 100 } });
    list.push(...page.list);
    if (list.length >= page.count) return list;
  }
}

/** Every file under `dir` (the replica, its WAL, key files, logs, kept PDFs, temporary files). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** Which of the texts appear in clear (UTF-8, as SQLite, JSON and logs write them) in which files. */
function foundInClear(dir: string, texts: readonly string[]): string[] {
  const needles = texts.map((text) => [text, Buffer.from(text, 'utf8')] as const);
  return filesUnder(dir).flatMap((path) => {
    const bytes = readFileSync(path);
    return needles.filter(([, needle]) => bytes.includes(needle)).map(([text]) => `${path}: ${text}`);
  });
}

/** Turns a replica back into the plain file a build before encryption kept, its key file gone. */
function decryptToPlain(replicaPath: string): void {
  const replica = openKeptReplica(replicaPath);
  replica.pragma('journal_mode = DELETE');
  replica.pragma(`rekey = ''`);
  replica.close();
  rmSync(keyFilePath(replicaPath));
}

const isPlainSqlite = (path: string) => readFileSync(path).subarray(0, 16).equals(Buffer.from('SQLite format 3\0', 'latin1'));

describe('the replica file', () => {
  const dir = tempDir('contract-desk-encrypted-');
  afterAll(() => dir.cleanup());

  it('does not open without its key, nor with another', () => {
    const path = join(dir.path, 'r.sqlite');
    const key = randomBytes(32);
    const replica = openReplica(path, clientMigrationsDir, { key });
    replica.sqlite.prepare("insert into contracts (id, name, status, create_time, update_time, version) values ('c1', 'Quokka Holdings supply deal', 1, 't', 't', 1)").run();
    replica.close();
    expect(isPlainSqlite(path)).toBe(false);
    expect(readFileSync(path).includes(Buffer.from('Quokka Holdings'))).toBe(false);

    const bare = new Database(path, { readonly: true });
    expect(() => bare.prepare('select name from contracts').all()).toThrow(/not a database/);
    bare.close();
    expect(() => openReplica(path, clientMigrationsDir)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'replica_corrupt' }) }));
    expect(() => openReplica(path, clientMigrationsDir, { key: randomBytes(32) })).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'replica_key_lost' }) }));

    const again = openReplica(path, clientMigrationsDir, { key });
    expect(again.sqlite.prepare('select name from contracts').pluck().get()).toBe('Quokka Holdings supply deal');
    again.close();
  });
});

describe('the data folder after a first sync', () => {
  const desktop = tempDir('contract-desk-scan-');
  const plainCopy = tempDir('contract-desk-scan-plain-');
  let core: Core | null = null;
  afterAll(async () => {
    await core?.close();
    desktop.cleanup();
    plainCopy.cleanup();
  });

  it('holds no contract name, amount or counterparty in clear: replica, WAL, kept PDFs, temporary files, logs', { timeout: 240_000 }, async () => {
    const contracts = await serverContracts();
    // A PDF archived on the server, which the device keeps for reading offline.
    const client = createContractServerClient(server.url);
    const { token } = await client.call('login', { body: { username: 'admin', password: 'admin123' } });
    const archived = contracts.find((c) => c.status === 4)!;
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([420, 300]).drawText('Signed by both parties.', { x: 30, y: 200, size: 12, font });
    const pdf = join(serverDir.path, 'signed.pdf');
    writeFileSync(pdf, await doc.save());
    const file = await client.uploadFile({ file: await openAsBlob(pdf), name: 'signed.pdf', mimeType: 'application/pdf', contractId: archived.id, purpose: 'archive', token });
    await client.call('archiveContract', { token, params: { id: archived.id }, body: { fileId: file.id, fileName: 'signed.pdf' } });

    // The core logs to a file in the data folder, as the desktop does to its logs folder (what it
    // keeps of an error is tested in private-logger.test.ts).
    core = testCore(desktop.path, { logger: rotatingFileLogger({ dir: join(desktop.path, 'logs') }) });
    const session = await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
    if (!session.signedIn) throw new Error('not signed in');
    await settledSync(core);
    await expect.poll(async () => (await call(core!, 'archive.cacheUsage', {})).files, { timeout: 120_000, interval: 250 }).toBeGreaterThan(0);
    // A queued edit and its answer, so the WAL holds fresh pages.
    const drafting = contracts.find((c) => c.status === 1)!;
    await call(core, 'contract.update', { id: drafting.id, patch: { name: 'Wombat Freight renewal' } });
    await waitFor(async () => ((await call(core!, 'sync.now', {})).queued === 0 ? true : undefined));

    const secrets = [
      'Wombat Freight renewal',
      ...contracts.map((c) => c.name),
      ...contracts.flatMap((c) => (c.counterpartName ? [c.counterpartName] : [])),
      // Amounts as text (JSON, logs) in minor and major units; six digits at least, never a chance match.
      ...contracts.flatMap((c) => (c.amount && c.amount.amount >= 100_000_00 ? [String(c.amount.amount), String(c.amount.amount / 100)] : [])),
    ];
    expect(secrets.length).toBeGreaterThan(100);
    const replicaPath = replicaPathFor(desktop.path, server.url, session.user.id);
    expect(existsSync(`${replicaPath}-wal`)).toBe(true);
    const scanned = filesUnder(desktop.path);
    expect(scanned.some((path) => path.includes('.archive'))).toBe(true);
    // Open (WAL and all), then closed.
    expect(foundInClear(desktop.path, [...secrets, '%PDF-'])).toEqual([]);
    await core.close();
    core = null;
    expect(foundInClear(desktop.path, [...secrets, '%PDF-'])).toEqual([]);

    // The scan finds them in the same replica in clear: it would see a leak.
    const copy = join(plainCopy.path, 'r.sqlite');
    writeFileSync(copy, readFileSync(replicaPath));
    writeFileSync(keyFilePath(copy), readFileSync(keyFilePath(replicaPath)));
    decryptToPlain(copy);
    expect(foundInClear(plainCopy.path, secrets).length).toBeGreaterThan(contracts.length);
  });
});

describe('a plain replica kept by the build before encryption', () => {
  const desktop = tempDir('contract-desk-convert-');
  const gate = gatedFetch();
  let core: Core | null = null;
  afterAll(async () => {
    await core?.close();
    desktop.cleanup();
  });

  it('is encrypted on first start with its 200 queued edits still queued, then each is applied once', { timeout: 300_000 }, async () => {
    const options = { fetch: gate.fetch, syncSoonMs: 20, connectivityProbeMs: 200 };
    core = testCore(desktop.path, options);
    const session = await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
    if (!session.signedIn) throw new Error('not signed in');
    await settledSync(core);
    const before = new Map((await serverContracts()).map((c) => [c.id, c]));
    const drafting = [...before.values()].filter((c) => c.status === 1).map((c) => c.id);
    expect(drafting.length).toBeGreaterThan(1);

    gate.offline = true;
    const edits = new Map<string, number>();
    for (let i = 0; i < 200; i += 1) {
      const id = drafting[i % drafting.length]!;
      await call(core, 'contract.update', { id, patch: { name: `Offline edit ${i}` } });
      edits.set(id, (edits.get(id) ?? 0) + 1);
    }
    expect((await call(core, 'sync.status', {})).queued).toBe(200);
    await core.close();
    const replicaPath = replicaPathFor(desktop.path, server.url, session.user.id);
    decryptToPlain(replicaPath);
    expect(isPlainSqlite(replicaPath)).toBe(true);

    // First start of this build, still offline: encrypted in place, the queue whole.
    core = testCore(desktop.path, options);
    expect(await call(core, 'session.get', {})).toMatchObject({ signedIn: true });
    expect(await call(core, 'session.get', {})).not.toHaveProperty('notice');
    expect((await call(core, 'sync.status', {})).queued).toBe(200);
    expect(isPlainSqlite(replicaPath)).toBe(false);
    expect(existsSync(keyFilePath(replicaPath))).toBe(true);

    gate.offline = false;
    const drained = await waitFor(async () => {
      const status = await call(core!, 'sync.now', {});
      return status.queued === 0 || status.problems.length > 0 ? status : undefined;
    }, 120_000);
    expect(drained.problems).toEqual([]);
    const after = new Map((await serverContracts()).map((c) => [c.id, c]));
    // Each edit applied once: a contract's version moved by its number of edits, its name is its last edit's.
    for (const [id, count] of edits) {
      expect(after.get(id)!.version - before.get(id)!.version).toBe(count);
      const last = [...Array(200).keys()].filter((i) => drafting[i % drafting.length] === id).at(-1)!;
      expect(after.get(id)!.name).toBe(`Offline edit ${last}`);
    }
    // And never again: a restart sends nothing.
    await core.close();
    core = testCore(desktop.path, options);
    await settledSync(core);
    expect((await call(core, 'sync.status', {})).queued).toBe(0);
    const edited = (await serverContracts()).filter((c) => edits.has(c.id));
    expect(edited.map((c) => [c.id, c.version])).toEqual(edited.map((c) => [c.id, after.get(c.id)!.version]));
  });
});

describe('a replica whose key is lost', () => {
  const desktop = tempDir('contract-desk-key-lost-');
  const gate = gatedFetch();
  let core: Core | null = null;
  afterAll(async () => {
    await core?.close();
    desktop.cleanup();
  });

  it('is set aside and synced afresh, and the unsent edits that went with it are reported', { timeout: 300_000 }, async () => {
    const options = { fetch: gate.fetch, syncSoonMs: 20, connectivityProbeMs: 200 };
    core = testCore(desktop.path, options);
    const session = await call(core, 'session.signIn', { serverUrl: server.url, username: 'admin', password: 'admin123' });
    if (!session.signedIn) throw new Error('not signed in');
    await settledSync(core);
    const drafting = (await serverContracts()).find((c) => c.status === 1)!;
    gate.offline = true;
    for (const n of [1, 2, 3]) await call(core, 'contract.update', { id: drafting.id, patch: { name: `Lost edit ${n}` } });
    await waitFor(async () => ((await call(core!, 'sync.status', {})).queued === 3 ? true : undefined));
    await core.close();
    const replicaPath = replicaPathFor(desktop.path, server.url, session.user.id);
    rmSync(keyFilePath(replicaPath));

    gate.offline = false;
    core = testCore(desktop.path, options);
    expect(await call(core, 'session.get', {})).toMatchObject({
      signedIn: true,
      notice: { code: 'replica_key_lost', reason: { key: 'unsentEditsLost', params: { count: 3 } } },
    });
    const status = await settledSync(core);
    expect(status).toMatchObject({ queued: 0, problems: [], error: null });
    expect((await call(core, 'ledger.contractStatistics', {})).total).toBe(60);
    expect(readdirSync(join(desktop.path, 'replicas')).some((name) => name.includes('.key-lost-'))).toBe(true);
    // The edits went with the old replica: the server never saw them.
    expect((await serverContracts()).find((c) => c.id === drafting.id)!.name).toBe(drafting.name);
  });
});
