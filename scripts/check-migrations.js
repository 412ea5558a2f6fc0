#!/usr/bin/env node
/*
 * `npm run db:check`: applies every migration to a scratch database, then asks TypeORM what it would generate
 * from the entities. Anything at all means entities and migrations drifted apart: fail.
 */
require('ts-node').register({ transpileOnly: true, project: 'tsconfig.spec.json' });
const { Client } = require('pg');
const { DataSource } = require('typeorm');
const { dataSourceOptions } = require('../src/infra/database/data-source-options');

const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `vc_drift_${process.pid}`;

async function admin(sql) {
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

(async () => {
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const dataSource = new DataSource(dataSourceOptions(url.toString(), [`${__dirname}/../src/**/*.entity.ts`]));
  let drift = [];
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    const sql = await dataSource.driver.createSchemaBuilder().log();
    drift = sql.upQueries.map((q) => q.query);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  if (drift.length) {
    console.error('Entities and migrations drift apart; generate a migration. Pending changes:');
    for (const q of drift) console.error(`  ${q}`);
    process.exit(1);
  }
  console.log('db:check: entities and migrations agree.');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
