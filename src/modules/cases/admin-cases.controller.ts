import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CaseResponse } from './case.response';
import { CasesService } from './cases.service';
import { CreatePromptDto } from './dto/create-prompt.dto';
import { LinkSystemPromptDto } from './dto/link-system-prompt.dto';
import { AttachToolsDto, MAX_CASE_TOOLS } from './dto/attach-tools.dto';
import { PromptResponse } from './prompt.response';
import { PromptsService } from './prompts.service';

/** The dashboard's side of cases: the prompt library and linking a case to one of its entries. */
@ApiTags('Cases and assistants')
@AdminOnly()
@Controller('admin/v1')
export class AdminCasesController {
  constructor(
    private readonly cases: CasesService,
    private readonly prompts: PromptsService,
  ) {}

  @Post('organizations/:orgId/prompts')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminCreatePrompt',
    summary: 'Add an entry to the prompt library',
    description: 'Cases and inbound assistants use an entry by its `id` (`systemPromptId`).',
  })
  @ApiDataResponse(PromptResponse, { status: 201 })
  @ApiAdminErrors()
  async createPrompt(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreatePromptDto) {
    return { data: PromptResponse.from(await this.prompts.create(orgId, dto.content)) };
  }

  @Post('cases/:caseId/system-prompt')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminLinkSystemPrompt',
    summary: "Link a case to an entry of its organization's prompt library, or unlink it (null)",
    description:
      "While linked, the case's calls use the entry's content as their system prompt and `prompt` is only a " +
      "fallback. 404 when the case or the entry (in the case's organization) does not exist.",
  })
  @ApiDataResponse(CaseResponse)
  @ApiAdminErrors()
  async linkSystemPrompt(@Param('caseId', IdParamPipe) caseId: string, @Body() dto: LinkSystemPromptDto) {
    return { data: CaseResponse.from(await this.cases.linkSystemPrompt(caseId, dto.systemPromptId ?? null)) };
  }

  @Post('cases/:caseId/tools')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminAttachTools',
    summary: "Replace a case's tools",
    description:
      `Sets both lists (at most ${MAX_CASE_TOOLS} each): \`toolIds\`, the organization's tools (an id it does ` +
      'not have is 400 VALIDATION_ERROR naming `toolIds`), and `integrationToolIds`, tools on the voice platform ' +
      "passed through as they are (omitted: none). The case's calls carry its tools from then on; calls already " +
      'made keep theirs (docs/tools.md). 404 when the case does not exist. A transfer tool with a destination ' +
      "the organization's destination rules refuse now is 422 DESTINATION_NOT_ALLOWED (docs/contracts/destinations.md).",
  })
  @ApiDataResponse(CaseResponse)
  @ApiAdminErrors('DESTINATION_NOT_ALLOWED')
  async attachTools(@Param('caseId', IdParamPipe) caseId: string, @Body() dto: AttachToolsDto) {
    return {
      data: CaseResponse.from(await this.cases.attachTools(caseId, dto.toolIds, dto.integrationToolIds ?? [])),
    };
  }
}
