// @ts-check
/**
 * Mutation testing of the memory adapter (`pnpm mutation:memory`): which code of packages/memory/src
 * its tests need. Only the memory package's own tests run (the contract suites against memory among
 * them: memory-contracts.test.ts), in the in-process project's config. Per-test coverage lets each
 * mutant run only the tests that reach it; one runner, since the machine is shared.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // Named, since pnpm keeps the runner out of the core's own node_modules, where Stryker looks.
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.in-process.config.ts', related: false },
  testFiles: ['packages/memory/test/**/*.test.ts'],
  mutate: ['packages/memory/src/**/*.ts'],
  // All 16 mutators made 1,504 mutants: one to two hours on the loaded shared machine. These five ask
  // whether a branch, a condition, a comparison or a call is needed; literals, operators, arrow
  // bodies, optional chains and regular expressions are left out.
  mutator: {
    excludedMutations: [
      'ArithmeticOperator',
      'ArrayDeclaration',
      'ArrowFunction',
      'AssignmentOperator',
      'BooleanLiteral',
      'ObjectLiteral',
      'OptionalChaining',
      'Regex',
      'StringLiteral',
      'UnaryOperator',
      'UpdateOperator',
    ],
  },
  // A mutant in code that runs when a module loads would need every test file to import the sources
  // anew; the in-process project shares one module graph per worker (`isolate: false`), so they are
  // left out (reported as ignored).
  ignoreStatic: true,
  coverageAnalysis: 'perTest',
  concurrency: 1,
  tempDirName: '.tmp/stryker-sandbox',
  ignorePatterns: ['/.tmp', '/.pg-data*', '/bench/.profiles', 'dist', 'coverage'],
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  clearTextReporter: { allowColor: false, logTests: false },
  jsonReporter: { fileName: '.tmp/stryker/memory-mutation.json' },
  htmlReporter: { fileName: '.tmp/stryker/memory-mutation.html' },
  // Surviving mutants are the point of the run: the script reports them, it does not fail on them.
  thresholds: { high: 90, low: 80, break: null },
};
