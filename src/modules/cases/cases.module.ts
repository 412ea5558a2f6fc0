import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminCasesController } from './admin-cases.controller';
import { Case } from './case.entity';
import { CasesController } from './cases.controller';
import { CasesService } from './cases.service';
import { Prompt } from './prompt.entity';
import { PromptsService } from './prompts.service';

/**
 * Cases (call scripts) and the prompt library. Exports `CasesService.getForCall` for call creation and
 * `PromptsService` for inbound assistants.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Case, Prompt]), OrganizationsModule],
  controllers: [CasesController, AdminCasesController],
  providers: [CasesService, PromptsService],
  exports: [CasesService, PromptsService],
})
export class CasesModule {}
