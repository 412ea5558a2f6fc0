import { Module } from '@nestjs/common';
import { CallCountsRepository } from './call-counts.repository';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminLimitsController } from './admin-limits.controller';
import { CallAdmission } from './call-admission';
import { LimitsController } from './limits.controller';
import { OrganizationLimit } from './organization-limit.entity';
import { OrganizationLimitsRepository } from './organization-limits.repository';

/** Admission control (extension, docs/contracts/dialer.md): per-organization concurrency limits and the decision at dispatch. */
@Module({
  imports: [TypeOrmModule.forFeature([OrganizationLimit]), OrganizationsModule],
  controllers: [LimitsController, AdminLimitsController],
  providers: [OrganizationLimitsRepository, CallCountsRepository, CallAdmission],
  exports: [CallAdmission, OrganizationLimitsRepository],
})
export class LimitsModule {}
