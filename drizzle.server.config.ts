import { defineConfig } from 'drizzle-kit';

// The contract server's migrations: `npx drizzle-kit generate --config drizzle.server.config.ts`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src-server/db/schema.ts',
  out: './migrations/server',
});
