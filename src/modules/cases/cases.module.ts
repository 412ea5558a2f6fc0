import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ToolsModule } from '../tools/tools.module';
import { AdminCasesController } from './admin-cases.controller';
import { Case } from './case.entity';
import { CaseVersion } from './case-version.entity';
import { CaseVersionsRepository } from './case-versions.repository';
import { CaseToolsBlocker } from './case-tools-blocker';
import { CasesController } from './cases.controller';
import { CaseVersionsController } from './case-versions.controller';
import { CasesRepository } from './cases.repository';
import { CasesService } from './cases.service';
import { Prompt } from './prompt.entity';
import { PromptsRepository } from './prompts.repository';
import { PromptsService } from './prompts.service';

/**
 * Cases (call scripts) and the prompt library. Exports `CasesService.getForCall` for call creation and
 * `PromptsService` for inbound assistants.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Case, CaseVersion, Prompt]), OrganizationsModule, ToolsModule],
  controllers: [CasesController, CaseVersionsController, AdminCasesController],
  providers: [
    CasesRepository,
    CaseVersionsRepository,
    CasesService,
    PromptsRepository,
    PromptsService,
    CaseToolsBlocker,
  ],
  exports: [CasesService, PromptsService],
})
export class CasesModule {}
