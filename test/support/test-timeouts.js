/*
 * Jest's time limit per test and hook, for the medium and end-to-end workers (jest.config.js,
 * setupFilesAfterEnv), whose runner (jest-light-runner) calls each function without one. A test or hook defined
 * with its own limit keeps it; the others get jest.config.js's testTimeout. A harness limit, never an assertion:
 * it turns a hung test into a failure naming it instead of a run that never ends. Each call also tells the worker's
 * event-loop watchdog (event-loop-watchdog.js) what runs, for the case no timer can catch.
 */
const { join, relative } = require('node:path');
const { addEventHandler } = require('jest-circus');
const { testTimeout } = require('../../jest.config');
const { running } = require('./event-loop-watchdog');

const ROOT = join(__dirname, '..', '..');

function limited(fn, timeout, what) {
  const call = () =>
    fn.length >= 1 ? new Promise((resolve, reject) => fn((error) => (error ? reject(error) : resolve()))) : fn();
  return () =>
    new Promise((resolve, reject) => {
      const file = globalThis.expect?.getState?.().testPath;
      running(`running ${what} of ${file ? relative(ROOT, file) : 'a test file'}`);
      const timer = setTimeout(() => reject(new Error(`Exceeded the ${timeout} ms limit of ${what}`)), timeout);
      Promise.resolve()
        .then(call)
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
}

addEventHandler((event, state) => {
  const block = state.currentDescribeBlock;
  if (event.name === 'add_test') {
    const test = block.children[block.children.length - 1];
    if (test?.type === 'test' && event.fn && test.fn === event.fn) {
      test.fn = limited(test.fn, event.timeout ?? testTimeout, `test "${event.testName}"`);
    }
  } else if (event.name === 'add_hook') {
    const hook = block.hooks[block.hooks.length - 1];
    if (hook?.fn === event.fn) hook.fn = limited(hook.fn, event.timeout ?? testTimeout, `a ${event.hookType} hook`);
  }
});
