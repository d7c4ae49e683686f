// @ts-check
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/**
 * Lint for the whole repository (npm run lint; npm test runs it). Type-aware rules only where
 * they are cheap and catch real bugs: floating promises and unsafe narrowing casts.
 */
export default tseslint.config(
  {
    ignores: [
      'dist',
      '.builds/',
      'data/',
      'coverage/',
      '.tmp/',
      'node_modules/',
      'shared/sanity.types.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {projectService: true, tsconfigRootDir: import.meta.dirname},
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none'},
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unsafe-type-assertion': 'error',
    },
  },
  {
    // Hooks live in .tsx components and in their own use*.ts files.
    files: ['web/**/*.tsx', 'studio/**/*.tsx', 'web/**/use*.ts', 'studio/**/use*.ts'],
    plugins: {'react-hooks': reactHooks},
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Tests may assert shapes they just built; the cast is the assertion.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**', 'test/**'],
    rules: {'@typescript-eslint/no-unsafe-type-assertion': 'off'},
  },
  {files: ['**/*.js'], ...tseslint.configs.disableTypeChecked},
)
