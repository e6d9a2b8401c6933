// Layer boundaries (in the spirit of VS Code's layers): each runtime layer may import only what
// runs where it runs. A crossing is an error, so `npm run lint` fails the build.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('_'));
const nodeBuiltinRegex = `^(node:.*|(${nodeBuiltins.map((m) => m.replace(/[/]/g, '\\/')).join('|')})(\\/.*)?)$`;

const rule = (regex, message) => ({ regex, message });
const folder = (name) => `(^|\\/)${name}(\\/|$)`;

export const boundaries = {
  electron: rule('^electron(\\/.*)?$', "'electron' may be imported only in src-main/shell."),
  sqlite: rule('^(better-sqlite3(-multiple-ciphers)?|drizzle-orm\\/better-sqlite3.*)$', "'better-sqlite3' may be imported only in src-main/core/data."),
  node: rule(nodeBuiltinRegex, 'src-shared runs everywhere: it imports no Node built-ins.'),
  react: rule('^(react|react-dom)(\\/.*)?$', 'src-shared imports no React.'),
  main: rule(folder('src-main'), 'This layer must not import src-main.'),
  server: rule(folder('src-server'), 'This layer must not import src-server.'),
  renderer: rule(folder('src-renderer'), 'This layer must not import src-renderer.'),
  shell: rule(folder('shell'), 'The core receives the shell through ports; it never imports src-main/shell.'),
  webHost: rule(folder('web-host'), 'The core never imports a host.'),
  // The core's features (one folder each, composed by core.ts and features.ts); a new feature joins this list.
  feature: rule('^\\.\\.\\/(contracts|ledger|performance|directory|features|core|archive|search|transfer|cached-reads|counterparties|contract-document)(\\/|$)', "The core's shared machinery knows no feature: a feature plugs in through data/replica-features.ts."),
};

const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const b = boundaries;

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'migrations/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-shared/**'],
    rules: restrict(b.node, b.electron, b.react, b.sqlite, b.main, b.server, b.renderer, rule('^(fastify|pg|ws|@electric-sql\\/.*)$', 'src-shared imports no server or host libraries.')),
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(b.node, b.electron, b.sqlite, b.main, b.server, rule('^(fastify|pg|ws)$', 'The renderer talks only through the bridge.')),
    },
  },
  {
    files: ['src-server/**'],
    rules: restrict(b.electron, b.sqlite, b.main, b.renderer),
  },
  {
    files: ['src-main/**'],
    ignores: ['src-main/shell/**', 'src-main/core/data/**'],
    rules: restrict(b.electron, b.sqlite, b.server, b.renderer),
  },
  {
    files: ['src-main/core/**'],
    ignores: ['src-main/core/data/**'],
    rules: restrict(b.electron, b.sqlite, b.server, b.renderer, b.shell, b.webHost),
  },
  {
    files: ['src-main/core/data/**'],
    rules: restrict(b.electron, b.server, b.renderer, b.shell, b.webHost, b.feature),
  },
  {
    files: ['src-main/core/{sync,session,ipc}/**'],
    rules: restrict(b.electron, b.sqlite, b.server, b.renderer, b.shell, b.webHost, b.feature),
  },
  {
    files: ['src-main/shell/**'],
    rules: restrict(b.sqlite, b.server, b.renderer),
  },
);
