import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../infra/config/app-config';
import { SigningSecrets } from '../infra/secrets/signing-secrets';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyKey } from './idempotency/idempotency-key.entity';
import { IdempotencyKeysPrunerJob } from './idempotency/idempotency-keys-pruner.job';
import { IdempotencyService } from './idempotency/idempotency.service';
import { CursorCodec } from './pagination/cursor-codec';
import { ReadAfterWrite } from './read-routing/read-after-write';
import { ReadRoutingInterceptor } from './read-routing/read-routing.interceptor';
import { ReferenceRegistry } from './references/reference-registry';

/**
 * The shared mechanisms every domain module uses: idempotency, the cursor codec, the delete-blocker registry, the
 * read routing of GET requests to a replica, the sealing of stored signing secrets.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [
    IdempotencyService,
    IdempotencyKeysPrunerJob,
    IdempotencyInterceptor,
    ReferenceRegistry,
    ReadAfterWrite,
    ReadRoutingInterceptor,
    {
      provide: CursorCodec,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret),
    },
    {
      provide: SigningSecrets,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SigningSecrets(config.signingKey),
    },
  ],
  exports: [
    IdempotencyService,
    IdempotencyInterceptor,
    CursorCodec,
    ReferenceRegistry,
    ReadRoutingInterceptor,
    SigningSecrets,
  ],
})
export class CommonModule {}
