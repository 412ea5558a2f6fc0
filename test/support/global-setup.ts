import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { runMigrations } from 'bullmq';
import { dataSourceOptions } from '../../src/infra/database/data-source-options';
import { TEMPLATE_DB, databaseUrl, dropTestDatabases, withAdminClient } from './databases';
import { writeGeneratedSources } from './generated-sources';
import { writeSdkDeclarations } from './sdk-declarations';

/**
 * Builds the template database once per run: our migrations plus BullMQ's PostgreSQL schema. Each test file
 * then clones it, so every file starts from the same migrated, empty state.
 */
export default async function globalSetup(): Promise<void> {
  await writeGeneratedSources();
  writeSdkDeclarations();
  // What an interrupted earlier run of this checkout left behind.
  await dropTestDatabases();
  await withAdminClient(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const url = databaseUrl(TEMPLATE_DB);
  const dataSource = new DataSource(dataSourceOptions(url));
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
  const client = new Client({ connectionString: url });
  await client.connect();
  await runMigrations(client);
  await client.end();
}
