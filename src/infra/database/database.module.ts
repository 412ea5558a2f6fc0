import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options';
import { DatabaseUrls } from './database-urls';
import { DATABASE_URLS } from './database.tokens';
import { ReplicaReads } from './replica-reads';

/** PostgreSQL through TypeORM; entities register themselves with `TypeOrmModule.forFeature` in their module. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(database: DatabaseUrls, poolSize: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(database.main, [], poolSize, database.read),
          autoLoadEntities: true,
        }),
      ],
      providers: [{ provide: DATABASE_URLS, useValue: database }, ReplicaReads],
      exports: [DATABASE_URLS, ReplicaReads],
    };
  }
}
