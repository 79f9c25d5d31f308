// ESLint: the recommended rules, for browser, worker and Node code.
//   npx eslint --config web/eslint.config.js .   (web/scripts/lint.sh, from the repository's root)
// Its patterns are the repository root's (basePath), wherever ESLint runs from.
import js from '@eslint/js';
import globals from 'globals';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default [
  {
    basePath: root,
    ignores: ['web/api/generated/', 'dist/', 'build/', 'node_modules/', 'tests/e2e/screenshots/'],
  },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
    rules: {
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
