import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Each layer's import rule must fail the lint run when crossed (eslint.config.js).
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const x = 1;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const crossings: [string, string, RegExp][] = [
  ['src-shared/domain/x.ts', "import { readFileSync } from 'node:fs';", /Node built-ins/],
  ['src-shared/domain/x.ts', "import path from 'path';", /Node built-ins/],
  ['src-shared/domain/x.ts', "import electron from 'electron';", /electron/],
  ['src-shared/domain/x.ts', "import React from 'react';", /React/],
  ['src-shared/domain/x.ts', "import Database from 'better-sqlite3';", /better-sqlite3/],
  ['src-main/core/core-x.ts', "import { app } from 'electron';", /only in src-main\/shell/],
  ['src-main/core/sync/x.ts', "import Database from 'better-sqlite3';", /only in src-main\/core\/data/],
  ['src-main/core/sync/x.ts', "import { drizzle } from 'drizzle-orm/better-sqlite3';", /only in src-main\/core\/data/],
  ['src-main/core/vault/x.ts', "import Database from 'better-sqlite3-multiple-ciphers';", /only in src-main\/core\/data/],
  ['src-main/web-host/x.ts', "import { app } from 'electron';", /only in src-main\/shell/],
  ['src-main/core/x.ts', "import { main } from '../shell/main';", /never imports src-main\/shell/],
  ['src-main/core/data/x.ts', "import { app } from 'electron';", /only in src-main\/shell/],
  ['src-main/shell/x.ts', "import Database from 'better-sqlite3';", /only in src-main\/core\/data/],
  ['src-main/core/data/x.ts', "import { contractMutations } from '../contracts/mutations';", /knows no feature/],
  ['src-main/core/sync/x.ts', "import { contractReader } from '../ledger/contract-ledger';", /knows no feature/],
  ['src-main/core/session/x.ts', "import { replicaFeatures } from '../features';", /knows no feature/],
  ['src-renderer/features/x.tsx', "import { createCore } from '../../src-main/core/core';", /must not import src-main/],
  ['src-renderer/features/x.tsx', "import { startContractServer } from '../../src-server';", /must not import src-server/],
  ['src-renderer/features/x.tsx', "import { readFileSync } from 'node:fs';", /Node built-ins/],
  ['src-renderer/features/x.tsx', "import { ipcRenderer } from 'electron';", /electron/],
  ['src-server/x.ts', "import { createCore } from '../src-main/core/core';", /must not import src-main/],
  ['src-server/x.ts', "import Database from 'better-sqlite3';", /better-sqlite3/],
];

const allowed: [string, string][] = [
  ['src-main/shell/x.ts', "import { app } from 'electron';"],
  ['src-main/core/data/x.ts', "import Database from 'better-sqlite3';"],
  ['src-main/core/data/x.ts', "import Database from 'better-sqlite3-multiple-ciphers';"],
  ['src-main/core/contracts/x.ts', "import { createOutbox } from '../data/outbox';"],
  ['src-main/core/data/x.ts', "import { mutations } from '../../../src-shared/sync/mutations';"],
  ['src-main/core/x.ts', "import { join } from 'node:path';"],
  ['src-renderer/features/x.tsx', "import { channels } from '../../src-shared/ipc/channels';"],
  ['src-server/x.ts', "import { endpoints } from '../src-shared/api/endpoints';"],
  ['src-shared/domain/x.ts', "import { z } from 'zod';"],
];

describe('layer boundaries', () => {
  it.each(crossings)('%s: %s is refused', async (file, source, message) => {
    const messages = await restrictedImports(file, source);
    expect(messages.length).toBe(1);
    expect(messages[0]).toMatch(message);
  });

  it.each(allowed)('%s: %s is allowed', async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  });
});
