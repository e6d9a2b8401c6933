import { defineConfig } from 'drizzle-kit';

// The contract server's migrations: `npx drizzle-kit generate --config drizzle.server.config.ts`.
export default defineConfig({
  dialect: 'postgresql',
  // The core tables, and each feature's own schema.ts beside its code.
  schema: ['./src-server/db/schema.ts', './src-server/*/schema.ts'],
  out: './migrations/server',
});
