import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Express 5 forwards rejected promises from handlers to the error handler.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: {
      // supertest bodies are untyped JSON
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['eslint.config.js', '.dependency-cruiser.cjs'], ...tseslint.configs.disableTypeChecked },
  // The public page's one browser script (no build step): plain JavaScript, not in the TS project.
  { files: ['web/**/*.js'], ...tseslint.configs.disableTypeChecked },
  { files: ['.dependency-cruiser.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } } },
);
