import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeyAuthenticator } from '../../common/auth/key-authenticator';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { ApiKey } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** Global because the access guard, registered app-wide, authenticates through it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), OrganizationsModule],
  controllers: [AdminApiKeysController],
  providers: [ApiKeysService, ApiKeysRepository, { provide: KeyAuthenticator, useExisting: ApiKeysService }],
  exports: [KeyAuthenticator, ApiKeysService],
})
export class ApiKeysModule {}
