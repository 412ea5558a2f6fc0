const { swcOptions } = require('./test/support/swc-options');

/**
 * Three depths: unit specs live beside the code (src/**\/*.spec.ts); medium specs run one repository or command
 * against real PostgreSQL without HTTP (test/**\/*.medium-spec.ts); end-to-end specs hit the running app over
 * HTTP (test/**\/*.e2e-spec.ts). Medium and e2e share the global setup (Jest runs one module once).
 */
/**
 * Every file is transpiled alone, by swc: no TypeScript program per Jest worker; types are checked once for the
 * whole project by `npm run typecheck` (CI runs it first). The options (test/support/swc-options.js) are
 * tsconfig.spec.json's. The OpenAPI metadata that @nestjs/swagger's compiler plugin gives `nest build` is generated
 * once per run by the global setup instead (test/support/generated-sources.ts) and attached to the app under test.
 *
 * Unit specs run in Jest's own runner: a fresh module registry per file, through @swc/jest, without design-time
 * metadata (they construct their classes themselves). Medium and end-to-end files run in jest-light-runner's worker,
 * in child processes (test/support/shared-module-runner.mjs), on Node's own module loader
 * (test/support/typescript-hooks.js): a worker loads the app's ~800 modules and their packages once and shares
 * them with every file it runs, where Jest's registry loaded them again for each
 * file (1.2-1.5 s of CPU per file, BENCHMARKS.md). What a file changes on shared modules or globals is seen by the
 * next file of its worker: every file boots its own app on its own database and queue prefix and closes it, and
 * keeps no state in modules.
 */
const unitTransform = { '^.+\\.ts$': ['@swc/jest', swcOptions({ decoratorMetadata: false })] };
const sharedModules = {
  // Jest itself still compiles the global setup and teardown (in its own process) with this.
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions({ decoratorMetadata: true })] },
  runner: '<rootDir>/test/support/shared-module-runner.mjs',
  setupFiles: ['<rootDir>/test/support/typescript-hooks.js'],
  setupFilesAfterEnv: ['<rootDir>/test/support/test-timeouts.js'],
};

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
  // Longest file first, from the times the last recorded run took when Jest has none of its own (a fresh clone):
  // a long file started last would hold the run after every other file is done.
  testSequencer: '<rootDir>/test/support/longest-first-sequencer.js',
  // With --coverage (npm run test:rules): the rule modules above, together (a global option: projects ignore it).
  collectCoverageFrom: RULE_MODULES,
  coverageThreshold: { global: { lines: 90, branches: 90 } },
  // Three on two cores: an end-to-end file mostly waits (simulated calls, deliveries, its app's timers), so two
  // workers left the cores half idle; files on PostgreSQL queues, which hold ~43 connections each, run one at a
  // time across workers (test/support/test-app.ts), so three stay under the server's 100 connections.
  maxWorkers: 3,
  // A global option (projects do not take it): end-to-end hooks boot and stop whole applications, which on a
  // busy 2-core machine (CI beside other work) took over a minute. A harness limit, never an assertion.
  testTimeout: 120000,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform: unitTransform,
      testEnvironment: 'node',
    },
    {
      displayName: 'medium',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.medium-spec.ts'],
      ...sharedModules,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      ...sharedModules,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      slowTestThreshold: 20,
    },
  ],
};
