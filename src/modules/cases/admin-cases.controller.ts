import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CaseResponse } from './case.response';
import { CasesService } from './cases.service';
import { CreatePromptDto } from './dto/create-prompt.dto';
import { LinkSystemPromptDto } from './dto/link-system-prompt.dto';
import { PromptResponse } from './prompt.response';
import { PromptsService } from './prompts.service';

/** The dashboard's side of cases: the prompt library and linking a case to one of its entries. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1')
export class AdminCasesController {
  constructor(
    private readonly cases: CasesService,
    private readonly prompts: PromptsService,
  ) {}

  @Post('organizations/:orgId/prompts')
  @HttpCode(201)
  async createPrompt(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreatePromptDto) {
    return { data: PromptResponse.from(await this.prompts.create(orgId, dto.content)) };
  }

  @Post('cases/:caseId/system-prompt')
  @HttpCode(200)
  async linkSystemPrompt(@Param('caseId', IdParamPipe) caseId: string, @Body() dto: LinkSystemPromptDto) {
    return { data: CaseResponse.from(await this.cases.linkSystemPrompt(caseId, dto.systemPromptId ?? null)) };
  }
}
