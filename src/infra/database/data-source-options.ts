import type { DataSourceOptions } from 'typeorm';
import { firstInLineDriver } from './first-in-line';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/**
 * The one definition of how we talk to PostgreSQL, shared by the app, the TypeORM CLI (ormconfig.ts) and the
 * tests. Schema changes happen only through migrations, never `synchronize`.
 *
 * With `readUrl` (a streaming replica) TypeORM keeps a second pool; every query still goes to the primary
 * (`defaultMode: 'master'`) unless the read routing (read-routing.ts) sends a GET request's reads to the replica.
 */
export function dataSourceOptions(
  url: string,
  entities: DataSourceOptions['entities'] = [],
  poolSize = 20,
  readUrl?: string,
): DataSourceOptions {
  return {
    type: 'postgres',
    ...(readUrl ? { replication: { master: { url }, slaves: [{ url: readUrl }], defaultMode: 'master' } } : { url }),
    // Webhook delivery's statements go to the head of the pool's line (first-in-line.ts).
    driver: firstInLineDriver,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    // Failed queries surface as exceptions, which the error filter and the job logs report once, with context.
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 10000, application_name: 'voice-calling-api' },
  };
}
