// Small helpers shared by the two command lines (server and seed).

/** A whole number option within [min, max], or exit with a message naming the option. */
export function integerOption(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < min || parsed > max) fail(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return parsed;
}

export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The database the command uses: DATABASE_URL wins over --data (a PGlite directory). */
export function databaseFromEnvironment(dataDir: string | undefined) {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  return databaseUrl ? { databaseUrl } : { dataDir };
}
