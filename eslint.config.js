// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Import boundaries of ARCHITECTURE.md: who may import whom. */
const boundary = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const NODE_BUILTINS = { regex: '^node:', message: 'Runtime-neutral code must not import Node built-ins.' };
const ELECTRON = { group: ['electron', 'electron/*'], message: 'Only main/electron and preload may import electron.' };
const SVELTE = { group: ['svelte', 'svelte/*'], message: 'Only renderer/ may import svelte.' };
const layer = (name, message) => ({ group: [`**/${name}/**`, `**/${name}`], message });

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'coverage/', 'scratch/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-nocheck': true, 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-undef': 'off', // TypeScript checks names
    },
  },
  boundary(['common/**'], [NODE_BUILTINS, ELECTRON, SVELTE, layer('server', 'common/ imports nothing of the app.'),
    layer('main', 'common/ imports nothing of the app.'), layer('renderer', 'common/ imports nothing of the app.')]),
  boundary(['server/**'], [ELECTRON, SVELTE, layer('main', 'server/ depends only on common/.'),
    layer('renderer', 'server/ depends only on common/.'), layer('preload', 'server/ depends only on common/.')]),
  boundary(['main/core/**'], [ELECTRON, SVELTE, layer('electron', 'main/core never imports main/electron.'),
    layer('web', 'main/core never imports main/web.'), layer('renderer', 'main/core never imports the renderer.')]),
  boundary(['main/web/**'], [ELECTRON, SVELTE, layer('electron', 'main/web never imports main/electron.'),
    layer('renderer', 'main/web serves the built renderer, it does not import it.')]),
  boundary(['main/electron/**'], [SVELTE, layer('web', 'main/electron never imports main/web.'),
    layer('renderer', 'main/electron never imports the renderer.')]),
  boundary(['preload/**'], [SVELTE, layer('main', 'preload depends only on common/.'), layer('server', 'preload depends only on common/.')]),
  boundary(['renderer/**'], [NODE_BUILTINS, ELECTRON, layer('main', 'renderer talks only to window.desktop.'),
    layer('server', 'renderer talks only to window.desktop.'), layer('preload', 'renderer talks only to window.desktop.')]),
);
