import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminPhoneNumbersController } from './admin-phone-numbers.controller';
import { PhoneNumber } from './phone-number.entity';
import { PhoneNumbersController } from './phone-numbers.controller';
import { PhoneNumbersRepository } from './phone-numbers.repository';
import { PhoneNumbersService } from './phone-numbers.service';
import { VoicePlatformNumbers } from './voice-platform-numbers';
import { PlatformCredentialsCheck } from './platform-credentials-check';

@Module({
  imports: [TypeOrmModule.forFeature([PhoneNumber]), OrganizationsModule],
  controllers: [PhoneNumbersController, AdminPhoneNumbersController],
  providers: [PhoneNumbersService, PhoneNumbersRepository, VoicePlatformNumbers, PlatformCredentialsCheck],
  exports: [PhoneNumbersService, VoicePlatformNumbers],
})
export class PhoneNumbersModule {}
