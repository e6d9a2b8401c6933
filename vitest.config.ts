import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['tests/support/data-cache-setup.ts'],
    reporters: ['default'],
    // A poll's 1 s default is a flake on a loaded two-core CI machine; a failing poll just waits longer.
    expect: { poll: { timeout: 10_000 } },
  },
});
