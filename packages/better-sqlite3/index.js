// The replica's driver, under the name drizzle-orm's better-sqlite3 driver imports (a CommonJS package, as the module it names).
// eslint-disable-next-line @typescript-eslint/no-require-imports
module.exports = require('better-sqlite3-multiple-ciphers');
