// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/** Import boundaries of ARCHITECTURE.md: who may import whom. */
const boundary = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const NODE_BUILTINS = { regex: '^node:', message: 'Runtime-neutral code must not import Node built-ins.' };
const ELECTRON = { group: ['electron', 'electron/*'], message: 'Only main/electron and preload may import electron.' };
const SVELTE = { group: ['svelte', 'svelte/*'], message: 'Only renderer/ may import svelte.' };
const layer = (name, message) => ({ group: [`**/${name}/**`, `**/${name}`], message });
/** The desktop reaches the embedded service only through its launcher; what both need lives in shared/. */
const SERVICE_ONLY_VIA_LAUNCHER = layer(
  'server',
  'Only main/core/local-archive.ts imports server/; code both sides need belongs in shared/.',
);
const MAIN_CORE = [
  ELECTRON,
  SVELTE,
  layer('electron', 'main/core never imports main/electron.'),
  layer('web', 'main/core never imports main/web.'),
  layer('renderer', 'main/core never imports the renderer.'),
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'coverage/', 'scratch/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...svelte.configs.recommended,
  {
    // Components and rune modules: the Svelte parser, with TypeScript inside <script lang="ts">.
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig } },
  },
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': true, 'ts-nocheck': true, 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-undef': 'off', // TypeScript checks names
    },
  },
  boundary(
    ['common/**'],
    [
      NODE_BUILTINS,
      ELECTRON,
      SVELTE,
      layer('server', 'common/ imports nothing of the app.'),
      layer('shared', 'common/ imports nothing of the app.'),
      layer('main', 'common/ imports nothing of the app.'),
      layer('renderer', 'common/ imports nothing of the app.'),
    ],
  ),
  boundary(
    ['shared/**'],
    [
      ELECTRON,
      SVELTE,
      layer('server', 'shared/ depends only on common/.'),
      layer('main', 'shared/ depends only on common/.'),
      layer('renderer', 'shared/ depends only on common/.'),
      layer('preload', 'shared/ depends only on common/.'),
    ],
  ),
  boundary(
    ['server/**'],
    [
      ELECTRON,
      SVELTE,
      layer('main', 'server/ depends only on common/ and shared/.'),
      layer('renderer', 'server/ depends only on common/ and shared/.'),
      layer('preload', 'server/ depends only on common/ and shared/.'),
    ],
  ),
  boundary(['main/core/**'], [...MAIN_CORE, SERVICE_ONLY_VIA_LAUNCHER], ['main/core/local-archive.ts']),
  boundary(['main/core/local-archive.ts'], MAIN_CORE),
  boundary(
    ['main/web/**'],
    [
      ELECTRON,
      SVELTE,
      SERVICE_ONLY_VIA_LAUNCHER,
      layer('electron', 'main/web never imports main/electron.'),
      layer('renderer', 'main/web serves the built renderer, it does not import it.'),
    ],
  ),
  boundary(
    ['main/electron/**'],
    [
      SVELTE,
      SERVICE_ONLY_VIA_LAUNCHER,
      layer('web', 'main/electron never imports main/web.'),
      layer('renderer', 'main/electron never imports the renderer.'),
    ],
  ),
  boundary(
    ['preload/**'],
    [
      SVELTE,
      layer('main', 'preload depends only on common/.'),
      layer('server', 'preload depends only on common/.'),
      layer('shared', 'preload depends only on common/.'),
    ],
  ),
  boundary(
    ['renderer/**'],
    [
      NODE_BUILTINS,
      ELECTRON,
      layer('main', 'renderer talks only to window.desktop.'),
      layer('server', 'renderer talks only to window.desktop.'),
      layer('shared', 'renderer talks only to window.desktop.'),
      layer('preload', 'renderer talks only to window.desktop.'),
    ],
  ),
  // Last: Prettier owns the layout, so rules about it (line breaks in call chains) are off.
  prettier,
);
