/*
 * The Jest runner of the medium and end-to-end projects (jest.config.js): jest-light-runner's worker, which runs each
 * file on Node's own module loader so a worker shares its modules with every file it runs, in child processes of a
 * Tinypool pool, as jest-light-runner's own `child-process` runner does, with one difference: how a new child gets
 * its settings.
 *
 * A child asks for them (Jest's global and project configuration) when its first file starts, through the
 * pool's message channel. jest-light-runner's runner gives the whole pool one channel whose listeners are the
 * children that took a file, and answers a request by sending the settings to every listener and forgetting
 * them all. A child that took its file but was still starting (slow under load) missed that broadcast, and its own
 * request later found nobody to answer it: it waited forever, with its event loop alive and nothing to time out,
 * and the run never ended. Here every file gets a channel of its own, so a child's request is answered by the channel
 * of the file it runs, whenever it asks.
 */
import Tinypool from 'tinypool';

const WORKER = new URL('./worker-runner.js', import.meta.resolve('jest-light-runner'));
const ASK = 'jest-light-runner-get-worker-data';
const ANSWER = 'jest-light-runner-worker-data';

/** The channel of one file: answers its child's request for the settings, whenever it comes. */
function settingsChannel(workerData) {
  let reply;
  return {
    onMessage(listener) {
      reply = listener;
    },
    postMessage(message) {
      if (message === ASK) reply?.({ type: ANSWER, workerData });
    },
  };
}

/** Runs `task` for each item, at most `limit` at a time, in order. */
async function eachLimited(items, limit, task) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export default class SharedModuleRunner {
  #globalConfig;

  constructor(globalConfig) {
    this.#globalConfig = globalConfig;
  }

  async runTests(tests, watcher, onStart, onResult, onFailure) {
    const { maxWorkers } = this.#globalConfig;
    const pools = new Map();
    const poolFor = (projectConfig) => {
      if (!pools.has(projectConfig)) {
        const workerData = { globalConfig: this.#globalConfig, projectConfig, runtime: 'child_process' };
        const pool = new Tinypool({
          filename: WORKER,
          runtime: 'child_process',
          minThreads: maxWorkers,
          maxThreads: maxWorkers,
          env: process.env,
          trackUnmanagedFds: false,
          workerData,
        });
        pools.set(projectConfig, { pool, workerData });
      }
      return pools.get(projectConfig);
    };

    try {
      await eachLimited(tests, maxWorkers, async (test) => {
        try {
          await onStart(test);
          const { pool, workerData } = poolFor(test.context.config);
          await onResult(test, await pool.run(test.path, { channel: settingsChannel(workerData) }));
        } catch (error) {
          await onFailure(test, error);
        }
      });
    } finally {
      await Promise.all([...pools.values()].map(({ pool }) => pool.destroy()));
    }
  }
}
