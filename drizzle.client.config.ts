import { defineConfig } from 'drizzle-kit';

// The desktop replica's migrations (SQLite), applied by the main core when a replica opens.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src-main/core/data/schema.ts',
  out: './migrations/client',
});
