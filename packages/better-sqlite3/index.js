// The replica's driver, under the name drizzle-orm's better-sqlite3 driver imports.
module.exports = require('better-sqlite3-multiple-ciphers');
