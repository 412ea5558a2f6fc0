import { dropTestDatabases } from './databases';

/** The test files' databases whose background drop a worker did not live to finish (test/support/databases.ts). */
export default async function globalTeardown(): Promise<void> {
  await dropTestDatabases();
}
