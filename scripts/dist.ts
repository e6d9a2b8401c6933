import { spawnSync } from 'node:child_process';

// `npm run dist [-- electron-builder options]`: builds the app, then the installers. electron-builder
// rebuilds the native module (better-sqlite3-multiple-ciphers, which the app ships; better-sqlite3
// is only its other name, packages/better-sqlite3) for Electron's ABI in place in node_modules, so
// it is rebuilt for Node afterwards (also when packaging fails) and the tests keep running under Node.

function run(command: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  console.log(`\n> ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' }).status === 0;
}

/** Without npm's nodedir (this machine's npmrc points it at Node's headers) node-gyp fetches Electron's. */
function electronBuildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.toLowerCase() !== 'npm_config_nodedir'));
}

if (!run('npm', ['run', 'build'], process.env)) process.exit(1);
const packaged = run('npx', ['electron-builder', ...process.argv.slice(2)], electronBuildEnv(process.env));
const restored = run('npm', ['rebuild', 'better-sqlite3-multiple-ciphers'], process.env);
if (!restored) console.error('the SQLite modules could not be rebuilt for Node: run `npm rebuild better-sqlite3-multiple-ciphers` before the tests.');
process.exit(packaged && restored ? 0 : 1);
