// Type-aware lint over src/ (the inspector page too, by its own tsconfig), test/, scripts/ and bench/ (`npm run lint`, part of `npm test`). Formatting is Biome's
// (biome.json); this checks what the compiler does not: promises left floating, switches that miss a case, and the
// rest of typescript-eslint's type-checked recommendations.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'examples/**', 'schema/**'] },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test/describe/it return promises that the runner itself awaits
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      // `_name` marks a parameter or binding kept for its position or its type
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // an async implementation of a Promise-returning port needs no await: `async` turns its throws into rejections
      '@typescript-eslint/require-await': 'off',
      // the interpreter's faults are thrown without a stack on purpose (a script error is data, and cheap)
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'file', name: ['RuntimeFault', 'SyntaxFault'], path: 'src/interpreter/errors.ts' },
            // control flow (break, continue, return, exit, `?.`) unwinds the evaluator the same way
            {
              from: 'file',
              name: ['BreakSignal', 'ContinueSignal', 'ReturnSignal', 'ShortCircuit', 'ExitSignal'],
              path: 'src/interpreter/signals.ts',
            },
            { from: 'file', name: 'Mismatch', path: 'src/interpreter/builtins/registry.ts' },
          ],
        },
      ],
      // a caught value handed on as it came is not ours to wrap
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingUnknown: true, allowThrowingAny: true },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // tests read untyped JSON off the wire and out of the browser and assert on it: the assertions are the check
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
