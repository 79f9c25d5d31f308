// ESLint: the recommended rules, for browser, worker and Node code.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['web/api/generated/', 'dist/', 'build/', 'node_modules/', 'tests/e2e/screenshots/'] },
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
