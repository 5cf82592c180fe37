// The linter for the whole tree: ESLint's and typescript-eslint's recommended rules (syntax
// only, no type information: fast enough to run on every `npm test`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.wrangler/', '.tmp/', 'tests/fixtures/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name`: a place kept on purpose (a parameter a signature needs, a field left out of a rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Control characters are what terminal text, page text and file names are cleaned of.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests and benches drive pages through untyped `page.evaluate` glue.
    files: ['tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The runner's event log reads what the page's run sends as JSON, field by field, defensively.
    files: ['cli/report.ts', 'cli/run.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { process: 'readonly', global: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
