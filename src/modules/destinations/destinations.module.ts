import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminDestinationRulesController } from './admin-destination-rules.controller';
import { DestinationPolicyService } from './destination-policy.service';
import { DestinationRulesRow } from './destination-rules.entity';
import { DestinationRulesRepository } from './destination-rules.repository';

/** Destination rules against toll fraud (extension, docs/contracts/destinations.md): set per organization, checked before every dial. */
@Module({
  imports: [TypeOrmModule.forFeature([DestinationRulesRow]), OrganizationsModule],
  controllers: [AdminDestinationRulesController],
  providers: [DestinationRulesRepository, DestinationPolicyService],
  exports: [DestinationPolicyService],
})
export class DestinationsModule {}
