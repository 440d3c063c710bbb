// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// A string that starts like a SQL statement (upper-case keywords, as the store writes them).
const SQL =
  '/^\\s*(SELECT\\s|WITH\\s+\\w+\\s+AS\\b|INSERT\\s+INTO\\b|UPDATE\\s+\\w+\\s+SET\\b|DELETE\\s+FROM\\b|(CREATE|ALTER|DROP)\\s+(TABLE|INDEX|VIEW)\\b|PRAGMA\\s+\\w)/';
const SQL_MESSAGE = 'SQL outside src/store/: add a store port (both dialects) and call it.';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The CLI's own output is the only place for console; everything else logs through pino.
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // SQL lives beside the owner of its tables: src/store/ (both dialects), migrations/, and src/history/
    // (DuckDB over its own Parquet files). Elsewhere a statement is a store port waiting to be written.
    files: ['src/**/*.ts'],
    ignores: ['src/store/**', 'src/history/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${SQL}]`, message: SQL_MESSAGE },
        { selector: `TemplateLiteral > TemplateElement:first-child[value.raw=${SQL}]`, message: SQL_MESSAGE },
      ],
    },
  },
  {
    files: ['src/cli.ts', 'src/commands/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The console's page script runs in the browser.
    files: ['assets/console/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    // CommonJS (PM2's ecosystem file) has require() and nothing else.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
