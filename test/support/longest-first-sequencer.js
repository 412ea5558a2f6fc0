/*
 * Jest's own order, longest file first, also on a checkout that has never run the suite. Jest orders by the times it
 * recorded in its cache; without them (a fresh clone, CI) it falls back on file size, which put short files of
 * long waits (a killed worker taken over, a demo starting its own PostgreSQL) among the last to start, and the run
 * then waited for them with its other workers idle. Here a file Jest has no time for takes the time it last had in
 * test/support/test-times.json (written by `RECORD_TEST_TIMES=1 npm test`, slowest-files-reporter.js); a file in
 * neither (a new one) still goes first, as Jest does.
 */
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const RECORDED = require('./test-times.json');

class LongestFirstSequencer extends Sequencer {
  time(test) {
    const seconds = RECORDED[relative(test.context.config.rootDir, test.path)];
    return super.time(test) ?? (seconds === undefined ? undefined : seconds * 1000);
  }
}

module.exports = LongestFirstSequencer;
