import { parseArgs } from 'node:util';
import { databaseFromEnvironment, fail, integerOption } from '../cli-args';
import { defaultDataDir } from '../db/database';
import { seedDemoData } from '../index';

// `npm run seed -- --contracts N --seed S [--data DIR]`; honours DATABASE_URL like the server.

const usage = `Usage: npm run seed -- --contracts N --seed S [--data ${defaultDataDir}]
Replaces the data in the database with deterministic demo data (same seed, same rows).
With DATABASE_URL=postgres://… it seeds that PostgreSQL instead of the PGlite in --data.`;

let values;
try {
  ({ values } = parseArgs({
    options: { contracts: { type: 'string' }, seed: { type: 'string' }, data: { type: 'string' }, help: { type: 'boolean' } },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const contracts = integerOption('contracts', values.contracts, 1000, 0, 1_000_000);
const seed = integerOption('seed', values.seed, 1, 0, 2 ** 32 - 1);
const started = performance.now();
const written = await seedDemoData({ contracts, seed, ...databaseFromEnvironment(values.data) });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `Seeded ${written.contracts} contracts, ${written.counterparties} counterparties, ${written.users} users and ` +
    `${written.departments} departments (seed ${seed}) with ${written.performanceTasks} performance tasks in ${seconds} s.`,
);
