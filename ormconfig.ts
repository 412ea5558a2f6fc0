import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/infra/database/data-source-options';

/** The DataSource the TypeORM CLI uses (migration:generate / run / revert). */
export default new DataSource(
  dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/voice_calling', [
    `${__dirname}/src/**/*.entity.ts`,
  ]),
);
