import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options';
import { DATABASE_URL } from './database.tokens';

/** PostgreSQL through TypeORM; entities register themselves with `TypeOrmModule.forFeature` in their module. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(databaseUrl: string, poolSize: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, [], poolSize), autoLoadEntities: true })],
      providers: [{ provide: DATABASE_URL, useValue: databaseUrl }],
      exports: [DATABASE_URL],
    };
  }
}
