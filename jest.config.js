/**
 * Three depths: unit specs live beside the code (src/**\/*.spec.ts); medium specs run one repository or command
 * against real PostgreSQL without HTTP (test/**\/*.medium-spec.ts); end-to-end specs hit the running app over
 * HTTP (test/**\/*.e2e-spec.ts). Medium and e2e share the global setup (Jest runs one module once).
 */
const tsJest = [
  'ts-jest',
  {
    // CommonJS for Jest's module system; the app build uses tsconfig.build.json.
    tsconfig: 'tsconfig.spec.json',
    // Types are checked once for the whole project by `npm run typecheck` (CI runs it first); checking them again
    // file by file in every worker was most of a cold run's compile time.
    diagnostics: false,
    // The same OpenAPI plugin `nest build` uses, so the app under test documents itself exactly as in production.
    astTransformers: { before: ['<rootDir>/test/support/swagger-plugin-transformer.js'] },
  },
];

/**
 * Unit specs test rules, not the app's OpenAPI metadata, and are type-checked by `npm run typecheck`: each file is
 * transpiled alone (isolatedModules), without building a TypeScript program per worker, which took most of the
 * unit suite's time. No decorator metadata either (nothing injects in a unit spec): an import used only as a
 * constructor's parameter type is then left out, so a command's spec loads the command, not its module's graph.
 */
const tsJestUnit = ['ts-jest', { tsconfig: 'tsconfig.unit.json' }];

/**
 * The command and rule modules whose branches unit specs cover (docs/architecture.md, "Tests at three depths"):
 * `npm run test:rules` measures their coverage by unit specs alone and fails under 90 % of lines or branches.
 */
const RULE_MODULES = [
  'src/modules/automations/next-occurrence.ts',
  'src/modules/call-outcomes/{analysis-plan,answered-by,voicemail-policy}.ts',
  'src/modules/calls/dispatch/call-dispatcher.job.ts',
  'src/modules/calls/tool-calls.service.ts',
  'src/modules/calls/voice/voice-ingress-applier.ts',
  'src/modules/platforms/voice/vapi/{vapi-outcomes,vapi-ended-reasons}.ts',
  'src/modules/campaigns/dialers/{follow-up-runner,follow-up-messenger,recurring-schedule-runner.job}.ts',
  'src/modules/campaigns/engine/{advance-campaign.command,calling-window}.ts',
  'src/modules/limits/call-admission.ts',
  'src/modules/messaging/chat-agent/answer-message.command.ts',
  'src/modules/tools/function-tool-invoker.ts',
  'src/modules/usage/{allocation,entitlements,reserve-minutes.command,settle-call.command}.ts',
  'src/modules/webhooks/delivery/webhook-delivery-slots.ts',
];

module.exports = {
  testEnvironment: 'node',
  // The slowest files and their times at the end of every run (test/support/slowest-files-reporter.js).
  reporters: ['default', '<rootDir>/test/support/slowest-files-reporter.js'],
  // With --coverage (npm run test:rules): the rule modules above, together (a global option: projects ignore it).
  collectCoverageFrom: RULE_MODULES,
  coverageThreshold: { global: { lines: 90, branches: 90 } },
  maxWorkers: 2,
  // A global option (projects do not take it): end-to-end hooks boot and stop whole applications, which on a
  // busy 2-core machine (CI beside other work) took over a minute. A harness limit, never an assertion.
  testTimeout: 120000,
  // A worker is replaced once it holds more than this after a test file: every e2e file boots a whole application
  // and the strict Vapi fake builds a TypeScript program over the SDK's declarations, and what a file leaves behind
  // (module registries, compiled sources) added up to a worker running out of heap on a long run. Not lower: a
  // worker starts at ~0.7 GB (ts-jest's TypeScript program for the app), and a new worker builds that program again
  // (~10 s of CPU), which at 1 GB happened every two or three files. scripts/run-jest.js gives workers a 6 GB heap.
  workerIdleMemoryLimit: '2.5GB',
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJestUnit },
      testEnvironment: 'node',
    },
    {
      displayName: 'medium',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.medium-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      slowTestThreshold: 20,
    },
  ],
};
