import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CreateOutboundAssistantDto } from '../assistants/dto/create-outbound-assistant.dto';
import { UpdateOutboundAssistantDto } from '../assistants/dto/update-outbound-assistant.dto';
import { InboundAssistantResponse } from '../assistants/inbound-assistant.response';
import { InboundAssistantsService } from '../assistants/inbound-assistants.service';
import { OutboundAssistantResponse, OutboundAssistantSummaryResponse } from '../assistants/outbound-assistant.response';
import { OutboundAssistantsService } from '../assistants/outbound-assistants.service';
import { CaseListItemResponse, CaseResponse } from '../cases/case.response';
import { CaseVersionResponse } from '../cases/case-version.response';
import { CasesService } from '../cases/cases.service';
import { CreateCaseDto } from '../cases/dto/create-case.dto';
import { ListCasesQueryDto } from '../cases/dto/list-cases-query.dto';
import { UpdateCaseDto } from '../cases/dto/update-case.dto';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';

/** Cases and assistants of an organization through their own services (same rules as /api/v1). */
@ApiTags('Cases and assistants')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class ConsoleScriptsController {
  constructor(
    private readonly cases: CasesService,
    private readonly outbound: OutboundAssistantsService,
    private readonly inbound: InboundAssistantsService,
  ) {}

  @Get('cases')
  @ApiOperation({ operationId: 'adminListCases', summary: 'Cases, newest first (GET /api/v1/cases)' })
  @ApiPageResponse(CaseListItemResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  listCases(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Query() query: ListCasesQueryDto,
  ): Promise<Page<CaseListItemResponse>> {
    return this.cases.list(orgId, query);
  }

  @Get('cases/:id')
  @ApiOperation({ operationId: 'adminGetCase', summary: 'One case' })
  @ApiDataResponse(CaseResponse)
  @ApiAdminErrors()
  async getCase(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Param('id', IdParamPipe) id: string) {
    return { data: CaseResponse.from(await this.cases.get(orgId, id)) };
  }

  @Get('cases/:id/versions')
  @ApiOperation({
    operationId: 'adminListCaseVersions',
    summary: "A case's versions with their content, newest first (GET /api/v1/cases/{id}/versions)",
  })
  @ApiPageResponse(CaseVersionResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  listCaseVersions(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<CaseVersionResponse>> {
    return this.cases.listVersions(orgId, id, query);
  }

  @Post('cases')
  @HttpCode(201)
  @ApiOperation({ operationId: 'adminCreateCase', summary: 'Create a case (POST /api/v1/cases)' })
  @ApiDataResponse(CaseResponse, { status: 201 })
  @ApiAdminErrors()
  async createCase(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreateCaseDto) {
    return { data: CaseResponse.from(await this.cases.create(orgId, dto)) };
  }

  @Patch('cases/:id')
  @ApiOperation({ operationId: 'adminUpdateCase', summary: 'Update a case (PATCH /api/v1/cases/{id})' })
  @ApiDataResponse(CaseResponse)
  @ApiAdminErrors()
  async updateCase(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateCaseDto,
  ) {
    return { data: CaseResponse.from(await this.cases.update(orgId, id, dto)) };
  }

  @Get('assistants/outbound')
  @ApiOperation({ operationId: 'adminListOutboundAssistants', summary: 'Outbound assistants' })
  @ApiDataResponse(OutboundAssistantSummaryResponse, { isArray: true })
  @ApiAdminErrors()
  async listOutbound(@Param('orgId', ExistingOrganizationPipe) orgId: string) {
    return { data: (await this.outbound.list(orgId)).map(OutboundAssistantSummaryResponse.from) };
  }

  @Get('assistants/outbound/:id')
  @ApiOperation({ operationId: 'adminGetOutboundAssistant', summary: 'One outbound assistant' })
  @ApiDataResponse(OutboundAssistantResponse)
  @ApiAdminErrors()
  async getOutbound(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Param('id', IdParamPipe) id: string) {
    return { data: OutboundAssistantResponse.from(await this.outbound.get(orgId, id)) };
  }

  @Post('assistants/outbound')
  @HttpCode(201)
  @ApiOperation({ operationId: 'adminCreateOutboundAssistant', summary: 'Create an outbound assistant' })
  @ApiDataResponse(OutboundAssistantResponse, { status: 201 })
  @ApiAdminErrors()
  async createOutbound(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateOutboundAssistantDto,
  ) {
    return { data: OutboundAssistantResponse.from(await this.outbound.create(orgId, dto)) };
  }

  @Patch('assistants/outbound/:id')
  @ApiOperation({ operationId: 'adminUpdateOutboundAssistant', summary: 'Update an outbound assistant' })
  @ApiDataResponse(OutboundAssistantResponse)
  @ApiAdminErrors()
  async updateOutbound(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateOutboundAssistantDto,
  ) {
    return { data: OutboundAssistantResponse.from(await this.outbound.update(orgId, id, dto)) };
  }

  @Get('assistants/inbound')
  @ApiOperation({ operationId: 'adminListInboundAssistants', summary: 'Inbound assistants' })
  @ApiDataResponse(InboundAssistantResponse, { isArray: true })
  @ApiAdminErrors()
  async listInbound(@Param('orgId', ExistingOrganizationPipe) orgId: string) {
    return { data: (await this.inbound.list(orgId)).map(InboundAssistantResponse.from) };
  }
}
